/** Writes a bundle: with --json the bytes the API sends (compact JSON; pipe to jq to read), the analyst's view otherwise. */
import type { PricingBundle } from '../../domain/bundle.js';
import { renderBundle } from './bundle-view.js';

export async function printBundle(bundle: PricingBundle, json: boolean, out: NodeJS.WritableStream): Promise<void> {
  out.write(json ? `${JSON.stringify(bundle)}\n` : await renderBundle(bundle));
}
