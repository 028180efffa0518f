/**
 * Observations on PostgreSQL. Ingest streams rows with COPY into a temporary staging table
 * (text format, written in chunks as rows arrive, waiting on the socket's backpressure), and
 * each commit moves the staged rows into `observations` with one INSERT ... ON CONFLICT DO
 * NOTHING: the two unique indexes are the identity of CONTRACT.md, as in SQLite, so a row
 * already stored, or given twice, is skipped and a re-run inserts nothing. The same statement
 * adds the inserted rows to their products' counts and earliest times.
 */
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import { conditionKey } from '../../domain/conditions.js';
import type { InsertResult, ResolvedObservation } from '../store.js';
import { identityKey } from '../sqlite/observation-repo.js';
import { toPgDatabaseError, type PgClient } from './connection.js';
import type { Session } from './session.js';

const COLUMNS = 'product_id, condition, observed_at, price_minor, source, grader, grade, external_id';

/** Rows of one transaction are staged here; ON COMMIT DELETE ROWS empties it at each commit. */
const STAGING = `CREATE TEMP TABLE IF NOT EXISTS observations_staging (
  product_id integer NOT NULL, condition text NOT NULL, observed_at bigint NOT NULL, price_minor bigint NOT NULL,
  source text NOT NULL, grader text NOT NULL, grade double precision, external_id text NOT NULL
) ON COMMIT DELETE ROWS`;

/**
 * The staged rows into observations, and what was inserted into the products' aggregates.
 * Staged rows keep their arrival order (ctid), so ids follow the input as in SQLite.
 */
const MERGE = `WITH inserted AS (
    INSERT INTO observations (${COLUMNS})
    SELECT ${COLUMNS} FROM observations_staging ORDER BY ctid
    ON CONFLICT DO NOTHING
    RETURNING product_id, observed_at
  ), per_product AS (
    SELECT product_id, count(*) AS n, min(observed_at) AS earliest FROM inserted GROUP BY product_id
  ), bumped AS (
    UPDATE products p SET observation_count = p.observation_count + a.n,
      earliest_observed_at = LEAST(COALESCE(p.earliest_observed_at, a.earliest), a.earliest)
    FROM per_product a WHERE p.id = a.product_id
  )
  SELECT coalesce(sum(n), 0)::bigint AS inserted FROM per_product`;

/** Bytes of COPY text gathered before they are written to the socket. */
const CHUNK_BYTES = 64 * 1024;

const SPECIAL = /[\\\t\n\r]/;
/** A value in COPY's text format: backslash, tab and line breaks escaped. */
function copyText(value: string): string {
  if (!SPECIAL.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** Streaming writes for ingest on PostgreSQL: see ObservationWriter (../observation-repo.ts). */
export interface PgObservationWriter {
  /** Stages one observation in the open transaction (opened when none is). */
  insert(productId: number, condition: string, observedAt: number, priceMinor: number, source: string, grader: string, grade: number | null, externalId: string): void;
  /** Resolves once the staged rows are on their way and the connection can take more (backpressure). */
  drain(): Promise<void>;
  /** Opens the transaction now, if none is open: the store's other writes then join it. */
  begin(): Promise<void>;
  /** Moves the staged rows into observations and commits; how many were new. 0 when nothing was open. */
  commit(): Promise<number>;
  rollback(): Promise<void>;
  /** Rolls back what is not committed and gives the connection back. */
  close(): Promise<void>;
}

export function createPgObservationRepo(session: Session, bumpVersion: (client: PgClient) => Promise<void>) {
  async function openWriter(): Promise<PgObservationWriter> {
    const client = await session.pool.connect().catch((error: unknown) => Promise.reject(toPgDatabaseError(error, session.url)));
    let open = false;
    let opening: Promise<void> | null = null;
    let copy: CopyStreamQuery | null = null;
    let copyDone: Promise<void> | null = null;
    let chunk = '';
    /** The first failure of the COPY stream, reported by the next call that waits. */
    let failure: unknown = null;

    const fail = (error: unknown) => {
      failure ??= toPgDatabaseError(error, session.url);
    };
    const check = () => {
      if (failure !== null) throw failure;
    };

    async function start(): Promise<void> {
      if (open) return;
      opening ??= (async () => {
        await client.query('BEGIN');
        await client.query(STAGING);
        open = true;
        session.transaction = { client, ready: endCopy };
      })().finally(() => (opening = null));
      await opening;
    }

    /** Ends the COPY in flight (its rows are staged), so the connection can run a statement. */
    async function endCopy(): Promise<void> {
      await pushChunk();
      const stream = copy;
      const done = copyDone;
      if (stream === null) return;
      copy = copyDone = null;
      stream.end();
      await done;
      check();
    }

    /** Writes the gathered text into the COPY stream, starting one when none is open. */
    async function pushChunk(): Promise<void> {
      if (chunk === '') return;
      const text = chunk;
      chunk = '';
      await start();
      if (copy === null) {
        const stream = client.query(copyFrom(`COPY observations_staging (${COLUMNS}) FROM STDIN`));
        copy = stream;
        copyDone = new Promise<void>((resolve) => {
          stream.on('finish', resolve);
          stream.on('error', (error) => {
            fail(error);
            resolve();
          });
        });
      }
      if (!copy.write(text)) await new Promise<void>((resolve) => copy!.once('drain', resolve).once('error', () => resolve()));
      check();
    }

    /** Gathered text is pushed one chunk at a time, in order. */
    let pushing: Promise<void> = Promise.resolve();

    const writer: PgObservationWriter = {
      insert(productId, condition, observedAt, priceMinor, source, grader, grade, externalId) {
        chunk += `${productId}\t${copyText(condition)}\t${observedAt}\t${priceMinor}\t${copyText(source)}\t${copyText(grader)}\t${grade === null ? '\\N' : grade}\t${copyText(externalId)}\n`;
        if (chunk.length >= CHUNK_BYTES) pushing = pushing.then(pushChunk).catch(fail);
      },
      async drain() {
        await pushing;
        check();
      },
      begin: start,
      async commit() {
        await pushing;
        if (!open && chunk === '') return 0;
        try {
          await endCopy();
          const [{ inserted }] = (await client.query<{ inserted: number }>(MERGE)).rows as [{ inserted: number }];
          await bumpVersion(client);
          await client.query('COMMIT');
          return inserted;
        } catch (error) {
          fail(error);
          await writer.rollback();
          throw failure;
        } finally {
          open = false;
          if (session.transaction?.client === client) session.transaction = null;
        }
      },
      async rollback() {
        chunk = '';
        if (copy !== null) {
          // Aborting the COPY makes the server fail it; the transaction is rolled back below.
          const stream = copy;
          copy = copyDone = null;
          stream.destroy(new Error('ingest rolled back'));
        }
        if (open) await client.query('ROLLBACK').catch(() => {});
        open = false;
        failure = null;
        if (session.transaction?.client === client) session.transaction = null;
      },
      async close() {
        await pushing.catch(() => {});
        await writer.rollback();
        client.release();
      },
    };
    return writer;
  }

  return {
    openWriter,
    /** Inserts a batch in one transaction, skipping records already stored (CONTRACT.md identity). */
    async insertMany(rows: readonly ResolvedObservation[]): Promise<InsertResult> {
      const writer = await openWriter();
      try {
        for (const o of rows) writer.insert(o.productId, conditionKey(o.grader, o.grade), o.observedAt, o.priceMinor, o.source, o.grader, o.grade, o.externalId ?? '');
        const inserted = await writer.commit();
        return { inserted, duplicates: rows.length - inserted };
      } finally {
        await writer.close();
      }
    },
    /**
     * For --dry-run: true when an insert would add this row; `seen` remembers the rows counted
     * before.
     */
    async isNew(productId: number, condition: string, observedAt: number, priceMinor: number, source: string, externalId: string, seen: Set<string>): Promise<boolean> {
      const key = identityKey(productId, condition, observedAt, priceMinor, source, externalId);
      if (seen.has(key)) return false;
      const stored =
        externalId !== ''
          ? await session.query("SELECT 1 FROM observations WHERE source = $1 AND external_id = $2 AND external_id <> ''", [source, externalId])
          : await session.query(
              "SELECT 1 FROM observations WHERE product_id = $1 AND condition = $2 AND observed_at = $3 AND price_minor = $4 AND source = $5 AND external_id = ''",
              [productId, condition, observedAt, priceMinor, source],
            );
      if (stored.length > 0) return false;
      seen.add(key);
      return true;
    },
  };
}
