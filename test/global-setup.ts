/** The CLI tests run the built bin/oracle.js: fail at once, with the fix, when there is no build. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function checkBuild(): void {
  const bundle = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
  if (!existsSync(bundle))
    throw new Error(`${bundle} is missing: run 'npm run build' (npm test does it first)`);
}
