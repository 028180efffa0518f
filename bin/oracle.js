#!/usr/bin/env node
'use strict';
/**
 * The `oracle` command: runs the bundled CLI compiled from its code cache (compile-cli.js).
 * Under --enable-source-maps Node.js loads the bundle itself, so stack traces point into src/.
 */
const { bundlePath, compileCli } = require('./compile-cli.js');

/** What ORACLE_DEBUG=1 says of the code cache: a start without it is slower, and here is why. */
const CACHE_NOTES = {
  used: 'compiled from its code cache',
  rejected: 'its code cache was made by another Node.js or with other V8 flags: compiled without it (npm run build makes a new one)',
  none: 'no code cache for this build: compiled without one (npm run build makes it)',
};

function load() {
  if (process.sourceMapsEnabled) return require(bundlePath());
  const { cli, cache } = compileCli();
  if (process.env.ORACLE_DEBUG === '1') process.stderr.write(`oracle: dist/cli/main.js ${CACHE_NOTES[cache]}\n`);
  return cli;
}

let cli;
try {
  cli = load();
} catch (error) {
  process.stderr.write(`oracle: ${error.message}\n`);
  process.exit(1);
}
let settled = false;
cli.main(process.argv).then((code) => {
  settled = true;
  process.exitCode = code;
});
// A run whose work never settled (the event loop emptied while main still waited) is a bug,
// never a success for a cron job: the code Node.js gives an unsettled top-level await.
process.on('exit', (code) => {
  if (!settled && code === 0) process.exitCode = 13;
});
