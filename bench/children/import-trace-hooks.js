// @ts-check
/** Module hooks of import-trace.js (they run on the loader thread). */
import { appendFileSync } from 'node:fs';

const LOG = process.env.BENCH_IMPORT_LOG;

/**
 * @param {string} specifier
 * @param {unknown} context
 * @param {(specifier: string, context: unknown) => Promise<{ url: string }>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (LOG) appendFileSync(LOG, `${result.url}\n`);
  return result;
}
