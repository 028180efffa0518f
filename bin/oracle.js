#!/usr/bin/env node
'use strict';
/**
 * The `oracle` command: runs the bundled CLI compiled from its code cache (compile-cli.js).
 * Under --enable-source-maps Node.js loads the bundle itself, so stack traces point into src/.
 */
const { bundlePath, compileCli } = require('./compile-cli.js');

const DEBUG = process.env.ORACLE_DEBUG === '1';

/** What ORACLE_DEBUG=1 says of the code cache: a start without it is slower, and here is why. */
const CACHE_NOTES = {
  used: 'compiled from its code cache',
  rejected:
    'its code cache does not fit this Node.js or its V8 flags (node options, NODE_OPTIONS): compiled without it (after a Node.js upgrade, npm run build makes a new one)',
  none: 'no code cache for this build: compiled without one (npm run build makes it)',
  sourceMaps: 'loaded by Node.js for --enable-source-maps, without its code cache',
};

function load() {
  if (process.sourceMapsEnabled ?? process.execArgv.includes('--enable-source-maps'))
    return { cli: require(bundlePath()), cache: 'sourceMaps' };
  return compileCli();
}

let loaded;
try {
  loaded = load();
} catch (error) {
  process.stderr.write(DEBUG ? `${error.stack}\n` : `oracle: ${error.message}\n`);
  process.exit(1);
}
const { cli, cache } = loaded;
if (DEBUG) process.stderr.write(`oracle: dist/cli/main.js ${CACHE_NOTES[cache]}\n`);
let settled = false;
cli.main(process.argv).then((code) => {
  settled = true;
  process.exitCode = code;
});
// A run whose work never settled (the event loop emptied while main still waited) is a bug in
// oracle, never a success for a cron job.
process.on('exit', (code) => {
  if (settled || code !== 0) return;
  process.stderr.write(
    'oracle: the command stopped before it finished (a bug in oracle: please report it)\n',
  );
  process.exitCode = cli.EXIT.internal;
});
