/** Writes a bundle: exactly the API body with --json, the analyst's view otherwise. */
import type { PricingBundle } from '../../domain/bundle.js';
import { renderBundle } from './bundle-view.js';

export async function printBundle(bundle: PricingBundle, json: boolean, out: NodeJS.WritableStream): Promise<void> {
  out.write(json ? `${JSON.stringify(bundle, null, 2)}\n` : await renderBundle(bundle));
}
