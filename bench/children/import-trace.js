// @ts-check
/**
 * Preloaded with `node --import` by the start-up benchmarks: records every module URL the
 * process resolves into the file named by BENCH_IMPORT_LOG, to show which packages a command loads.
 */
import { register } from 'node:module';

register('./import-trace-hooks.js', import.meta.url);
