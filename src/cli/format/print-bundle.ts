/** Writes a bundle: with --json the bytes the API sends (compact JSON; pipe to jq to read), the analyst's view otherwise. */
import type { PricingBundle } from '../../domain/bundle.js';
import { renderBundle } from './bundle-view.js';
import type { Terminal } from './terminal.js';

export function printBundle(
  bundle: PricingBundle,
  json: boolean,
  out: NodeJS.WritableStream,
  terminal: Terminal,
): void {
  out.write(json ? `${JSON.stringify(bundle)}\n` : renderBundle(bundle, terminal));
}
