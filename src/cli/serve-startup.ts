/**
 * What `oracle serve` says on stderr before it listens (stdout is the JSON access log): the
 * database it serves (absolute path) and what is in it, the keys that can call it, which
 * routes are off and how to turn them on, and a warning for each thing that makes the API
 * answer nothing useful (no database, no key).
 */
import { DatabaseUnavailableError } from '../domain/errors.js';
import type { Oracle, ServiceInventory } from '../service/oracle.js';
import { describeLocation } from '../store/location.js';
import type { ServeConfig } from './serve-config.js';

const REFSOURCE_ROUTES = '/api/v1/developer/refsource/{refsource_id} and its /snapshot';

const count = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

function keysLine(inventory: ServiceInventory): string {
  if (inventory.envKeys === 0) return count(inventory.keys, 'API key');
  return `${count(inventory.keys, 'API key')} (${inventory.storedKeys.toLocaleString('en-US')} stored, ${inventory.envKeys} from ORACLE_API_KEYS)`;
}

function refsourceLine(config: ServeConfig): string {
  if (config.offline)
    return `refsource routes: offline, ids resolved from the local catalog only (${REFSOURCE_ROUTES})`;
  if (config.refsourceUrl)
    return `refsource routes: ids resolved through the upstream at ${new URL(config.refsourceUrl).origin}`;
  return (
    `refsource routes disabled: ${REFSOURCE_ROUTES} answer 503 (no upstream reference source configured); ` +
    'enable them with --refsource-url <url with {id}> (ORACLE_REFSOURCE_URL), or --offline to resolve ids from the local catalog'
  );
}

function optionalRoutesLines(config: ServeConfig): string[] {
  return [
    config.metrics
      ? 'metrics: GET /metrics (Prometheus text format)'
      : 'metrics: off (enable with --metrics)',
    config.corsOrigins.length > 0
      ? `CORS: browsers on ${config.corsOrigins.join(', ')} may call the API`
      : 'CORS: off (enable with --cors <origin>)',
    config.publicPages
      ? 'web pages: GET / open to anyone who reaches this server, no key needed (--public)'
      : 'web pages: GET / after signing in with an API key (open them to a trusted network with --public)',
  ];
}

/** The start-up lines, without newlines; reading the inventory opens the database. */
export async function startupLines(service: Oracle, config: ServeConfig, dbPath: string): Promise<string[]> {
  const path = describeLocation(dbPath);
  const lines: string[] = [];
  try {
    const inventory = await service.inventory();
    lines.push(
      `database: ${path} (${count(inventory.products, 'product')}, ${count(inventory.observations, 'observation')}, ${keysLine(inventory)})`,
    );
    if (!inventory.ready) {
      lines.push(
        "warning: no API key exists: every keyed route answers 401; create one with 'oracle keys create --label <name>' (or set ORACLE_API_KEYS)",
      );
    }
  } catch (error) {
    if (!(error instanceof DatabaseUnavailableError)) throw error;
    lines.push(`database: ${path}`);
    const fix =
      error.remedy === undefined
        ? "(load data with 'oracle ingest <file>', or point --db / ORACLE_DB at your database); the server picks it up without a restart"
        : `(${error.remedy})`;
    lines.push(
      `warning: database unavailable: ${error.reason}: every route but /api/v1/health, /api/v1/openapi.json answers 503 until it is fixed ${fix}`,
    );
  }
  lines.push(refsourceLine(config), ...optionalRoutesLines(config));
  return lines;
}
