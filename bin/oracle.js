#!/usr/bin/env node
'use strict';
/**
 * Runs the bundled CLI, dist/cli/main.js (built by `npm ci` / `npm run build`), compiled from
 * the V8 code cache the build saved for it, so a start skips compiling what the bundle's
 * commands ran when the build warmed it (scripts/warm-code-cache.js; docs/benchmarks.md,
 * "Build layout"). A cache for another build is never read: its file name carries the build id
 * of the bundle's first line. V8 itself drops a cache from another V8 or with other flags,
 * and compiles as usual. With --enable-source-maps Node.js loads the bundle itself, so stack
 * traces point into src/.
 */
const { readFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { createRequire, wrap } = require('node:module');
const { Script } = require('node:vm');

const BUNDLE = require.resolve('../dist/cli/main.js');
const BUILD_ID = /^\/\* oracle build ([\w-]+) \*\//;

/** The code cache file of the bundle whose source this is (the build names it by its id). */
function codeCachePath(source) {
  const id = BUILD_ID.exec(source)?.[1];
  return id === undefined ? undefined : `${BUNDLE}.${id}.v8cache`;
}

/**
 * The bundle compiled (from its code cache when there is one for it) and run as a CommonJS
 * module: its exports and its vm.Script, whose createCachedData() the build saves.
 */
function compileCli() {
  const source = readFileSync(BUNDLE, 'utf8');
  const cachePath = codeCachePath(source);
  let cachedData;
  try {
    cachedData = cachePath === undefined ? undefined : readFileSync(cachePath);
  } catch {
    // no cache for this build: compile as usual
  }
  const script = new Script(wrap(source), { filename: BUNDLE, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(BUNDLE), module, BUNDLE, dirname(BUNDLE));
  return { cli: module.exports, script, cachePath };
}

module.exports = { compileCli };

if (require.main === module) {
  const { main } = process.sourceMapsEnabled ? require(BUNDLE) : compileCli().cli;
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
