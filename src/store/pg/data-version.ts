/**
 * The data version on PostgreSQL: what SQLite's `PRAGMA data_version` is to a server's
 * caches, for any number of replicas. Every commit that changes what pricing reads bumps the
 * one row of data_version and, in the same transaction, NOTIFYs `oracle_data` with the new
 * value (the ingest and versioned writes by bumpDataVersion; any other writer's statements on
 * observations, psql's included, by a trigger, drizzle-pg/0004); PostgreSQL delivers the
 * notification at commit to every listening connection. A
 * server process keeps the last version it heard in memory, so dataVersion() stays a
 * synchronous read; its listening connection is opened on the first read. A lost listening
 * connection is reopened, and the row read again, so a notification missed meanwhile still
 * moves the version. A one-shot command does not listen: it keeps the version it read on open.
 *
 * A server that stops answering without closing the connection (frozen, or a network gone
 * silent: the kernel still acknowledges, so TCP sees nothing wrong) is found by a heartbeat,
 * the version row read every HEARTBEAT_MS on the listening connection with HEARTBEAT_DEADLINE_MS
 * to answer; a silent one counts as lost, so cached answers are not served from a database
 * the server can no longer see.
 */
import pg from 'pg';
import type { DatabaseDeadlines } from '../store.js';
import { deadlineSettings, type PgClient, type PgPool } from './connection.js';

export const DATA_CHANNEL = 'oracle_data';
const VERSION_ROW = 'SELECT version FROM data_version WHERE id = 1';

/** How long a lost listening connection waits before it is reopened. */
const RECONNECT_MS = 500;
/**
 * The heartbeat's period and deadline: a frozen database is noticed within their sum, inside
 * the 2 s in which every route must answer 503; a one-row read by primary key is far inside the
 * deadline on any database that answers at all, so a miss is not a slow database.
 */
export const HEARTBEAT_MS = 1_000;
export const HEARTBEAT_DEADLINE_MS = 500;

/**
 * The transaction setting by which a writer that bumps the version itself (the ingest) tells
 * the trigger on observations (drizzle-pg/0004), which bumps it for every other writer's
 * statements (psql, another tool), not to count its statements again.
 */
export const BUMPS_VERSION = 'oracle.bumps_version';

/** Bumps the version inside the caller's open transaction; the NOTIFY goes out at its commit. */
export async function bumpDataVersion(client: PgClient): Promise<void> {
  await client.query(
    `WITH bumped AS (UPDATE data_version SET version = version + 1 WHERE id = 1 RETURNING version)
     SELECT pg_notify('${DATA_CHANNEL}', version::text) FROM bumped`,
  );
}

export interface DataVersionWatch {
  current(): number;
  close(): Promise<void>;
}

/** Starts from `initial` (the row as read on open); `follow`: listens from the first call of current(). */
export function watchDataVersion(
  pool: PgPool,
  url: string,
  initial: number,
  follow: boolean,
  deadlines: DatabaseDeadlines,
): DataVersionWatch {
  let version = initial;
  /**
   * What current() returns: moves with the version, and also when the listening connection is
   * lost (notifications may be missed from then on, and the database may be gone: cached
   * answers must be read again, and fail as the database does).
   */
  let stamp = initial;
  let listener: pg.Client | null = null;
  let started = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const take = (value: number) => {
    // Versions only grow; a notification delivered late never moves it back.
    if (value <= version) return;
    stamp += value - version;
    version = value;
  };

  async function listen(): Promise<void> {
    if (closed) return;
    const client = new pg.Client({
      connectionString: url,
      application_name: 'oracle listen',
      ...deadlineSettings({ connectMs: deadlines.connectMs, statementMs: null }),
      query_timeout: HEARTBEAT_DEADLINE_MS,
    });
    listener = client;
    const retry = () => {
      if (listener !== client || closed) return;
      listener = null;
      stamp += 1;
      clearInterval(heartbeat);
      client.end().catch(() => {});
      timer = setTimeout(() => void listen(), RECONNECT_MS);
      timer.unref();
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', (message) => {
      if (message.channel === DATA_CHANNEL && message.payload) take(Number(message.payload));
    });
    try {
      await client.connect();
      if (closed) {
        await client.end();
        return;
      }
      await client.query(`LISTEN ${DATA_CHANNEL}`);
      // Read after LISTEN: a commit between the two is heard or read, never missed.
      const rows = await pool.query<{ version: number }>(VERSION_ROW);
      if (rows.rows[0]) take(rows.rows[0].version);
      heartbeat = setInterval(() => {
        client.query<{ version: number }>(VERSION_ROW).then((result) => take(result.rows[0]!.version), retry);
      }, HEARTBEAT_MS);
      heartbeat.unref();
    } catch {
      retry();
    }
  }

  return {
    current() {
      if (follow && !started) {
        started = true;
        void listen();
      }
      return stamp;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(heartbeat);
      const client = listener;
      listener = null;
      await client?.end().catch(() => {});
    },
  };
}
