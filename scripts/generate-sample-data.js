#!/usr/bin/env node
// Generates data/catalog.csv and data/observations.csv.gz (see data/README.md and --help).
// Runs the compiled generator: `npm run build` first (npm ci does it through `prepare`).
import { fileURLToPath } from 'node:url';
import { main } from '../build/sample/cli.js';

process.exitCode = await main(
  process.argv.slice(2),
  undefined,
  fileURLToPath(new URL('../data/', import.meta.url)),
);
