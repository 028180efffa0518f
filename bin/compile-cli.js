'use strict';
/**
 * Compiles the bundled CLI, dist/cli/main.js (built by `npm ci` / `npm run build`), from the V8
 * code cache the build saved for it, so a start skips compiling what the bundle's commands ran
 * when the build warmed it (scripts/warm-code-cache.js; docs/benchmarks.md, "Build layout").
 * A cache for another build is never read: its file name carries the build id on the bundle's
 * first line. V8 itself rejects a cache from another V8 or made with other flags, and then
 * compiles as usual. bin/oracle.js runs the CLI; the build's warm-up uses this to save the cache.
 * Every start-up tuning: docs/development.md, "Start-up and process tuning".
 */
const { readFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { createRequire, wrap } = require('node:module');
const { Script } = require('node:vm');

const BUILD_ID = /^\/\* oracle build (\w+) \*\//;

/** The bundle's path, or a clear error when there is no build. */
function bundlePath() {
  try {
    return require.resolve('../dist/cli/main.js');
  } catch {
    throw new Error(
      `${dirname(__dirname)}/dist/cli/main.js is missing: run 'npm run build' (npm ci runs it)`,
    );
  }
}

/** The code cache file of the bundle whose source this is (the build names it by the bundle's id). */
function codeCachePath(bundle, source) {
  const id = BUILD_ID.exec(source)?.[1];
  return id === undefined ? undefined : `${bundle}.${id}.v8cache`;
}

/**
 * The bundle compiled (from its code cache when there is one for it) and run as a CommonJS
 * module: its exports, its vm.Script (whose createCachedData() the build saves), the cache's
 * path, and what became of the cache: 'used', 'rejected' (by V8) or 'none' (no cache for this build).
 */
function compileCli() {
  const bundle = bundlePath();
  // The build writes the bundle in ASCII (scripts/build.js): read as latin1, it is copied into a
  // one-byte string instead of decoded from UTF-8.
  const source = readFileSync(bundle, 'latin1');
  const cachePath = codeCachePath(bundle, source);
  let cachedData;
  try {
    cachedData = cachePath === undefined ? undefined : readFileSync(cachePath);
  } catch {
    // no cache for this build: compile as usual
  }
  const script = new Script(wrap(source), { filename: bundle, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  return { cli: module.exports, script, cachePath, cache };
}

module.exports = { bundlePath, compileCli };
