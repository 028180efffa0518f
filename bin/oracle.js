#!/usr/bin/env node
// Runs the compiled, bundled CLI (built by `npm ci` / `npm run build`): no TypeScript loader at run time.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv);
