// @ts-check
/**
 * Preloaded with `node --import` by the start-up benchmarks: records every module the process
 * resolves into the file named by BENCH_IMPORT_LOG, to show which packages a command loads:
 * ES module imports through the loader's resolve hook (import-trace-hooks.js), and the files
 * require() loads (the shipped CLI is CommonJS) through CommonJS's Module#load, which Node.js 20
 * offers no hook for.
 */
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';

register('./import-trace-hooks.js', import.meta.url);

const LOG = process.env.BENCH_IMPORT_LOG;
/** @type {{ load: (filename: string) => void }} */
const cjs = /** @type {any} */ (Module).prototype;
const load = cjs.load;
cjs.load = function (filename) {
  if (LOG && isAbsolute(filename)) appendFileSync(LOG, `${pathToFileURL(filename).href}\n`);
  return load.call(this, filename);
};
