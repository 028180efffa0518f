/** The package version: esbuild puts package.json's version into the bundle, so no start reads the file. */
import packageJson from '../../package.json' with { type: 'json' };

export const VERSION: string = packageJson.version;
