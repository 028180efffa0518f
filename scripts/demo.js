#!/usr/bin/env node
// The README's set-up demo: generate the sample history ending at the current hour, load it
// into the database (ORACLE_DB or ./oracle.db), calibrate the intervals on that history (as the
// README says to after loading history), list the catalog and price a flagship card. Every step
// is a real `oracle` command, printed before it runs; the last lines name what to try next.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const FLAGSHIP = 'pokemon-base-set-charizard-4-102';

function step(title, command, args) {
  process.stdout.write(
    `\n== ${title}\n$ ${[command === process.execPath ? 'node' : command, ...args].join(' ')}\n`,
  );
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`demo: step "${title}" failed with exit code ${result.status}\n`);
    process.exit(result.status ?? 1);
  }
}

const oracle = (...args) => [process.execPath, ['bin/oracle.js', ...args]];

step('Generate the sample history (seeded, ending at the current hour)', process.execPath, [
  'scripts/generate-sample-data.js',
]);
step(
  'Load the catalog and the observations (idempotent: a rerun adds only what is new)',
  ...oracle('ingest', 'data/catalog.csv', 'data/observations.csv.gz'),
);
step('Calibrate the 80 % intervals on the loaded history', ...oracle('calibrate'));
step('The catalog', ...oracle('catalog', '--search', 'charizard'));
step(`The price bundle of ${FLAGSHIP}`, ...oracle('price', FLAGSHIP));
const next = [
  ['why that price', `node bin/oracle.js explain ${FLAGSHIP} --slot psa10`],
  ['its last 90 days', `node bin/oracle.js history ${FLAGSHIP}`],
  ['what a collection is worth', 'node bin/oracle.js value examples/collection.csv'],
];
process.stdout.write(
  `\nDatabase: ${process.env.ORACLE_DB ?? 'oracle.db'}. Three commands worth trying next:\n` +
    next.map(([why, command]) => `  # ${why}\n  ${command}\n`).join(''),
);
