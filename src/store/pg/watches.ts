/**
 * Watch rules and the outbox of their events on PostgreSQL: the statements of the SQLite repo
 * (../sqlite/watch-repo.ts). A check's changes commit in one transaction, each only when its
 * rule is still as read (the same compare-and-set), so concurrent checks record a crossing once.
 */
import type { DeliveryStatus, StoredWatchEvent, WatchDefinition, WatchRule } from '../../domain/watch.js';
import type { DeliveryOutcome, WatchStateChange } from '../store.js';
import { toPgDatabaseError } from './connection.js';
import type { Session } from './session.js';

const RULE_COLUMNS = `id, label, product_key AS "productKey", slot, kind, amount_minor AS "amountMinor", percent, direction,
  span_ms AS "spanMs", webhook_url AS "webhookUrl", created_at AS "createdAt", firing, last_value AS "lastValue", changed_at AS "changedAt"`;

const EVENT_COLUMNS = `id, rule_id AS "ruleId", created_at AS "createdAt", body, webhook_url AS "webhookUrl", status, attempts,
  last_attempt_at AS "lastAttemptAt", last_error AS "lastError", delivered_at AS "deliveredAt"`;

/** Oldest first; within one check (one created_at) by rule, the order the check records them in. */
const EVENT_ORDER = 'created_at, rule_id';
const NEWEST_FIRST = 'created_at DESC, rule_id DESC';

export function createPgWatchRepo(session: Session) {
  const q = session.query;
  return {
    async add(r: WatchDefinition, createdAt: number): Promise<WatchRule> {
      const [row] = await q<WatchRule>(
        `INSERT INTO watch_rules (label, product_key, slot, kind, amount_minor, percent, direction, span_ms, webhook_url, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${RULE_COLUMNS}`,
        [
          r.label,
          r.productKey,
          r.slot,
          r.kind,
          r.amountMinor,
          r.percent,
          r.direction,
          r.spanMs,
          r.webhookUrl,
          createdAt,
        ],
      );
      return row!;
    },
    rules: () => q<WatchRule>(`SELECT ${RULE_COLUMNS} FROM watch_rules ORDER BY id`),
    async remove(id: number): Promise<boolean> {
      return (await q('DELETE FROM watch_rules WHERE id = $1 RETURNING id', [id])).length > 0;
    },
    async record(changes: readonly WatchStateChange[]): Promise<string[]> {
      if (changes.length === 0) return [];
      const client = await session.pool
        .connect()
        .catch((error: unknown) => Promise.reject(toPgDatabaseError(error, session.url)));
      try {
        await client.query('BEGIN');
        const recorded: string[] = [];
        for (const c of changes) {
          const updated = await client.query(
            'UPDATE watch_rules SET firing = $1, last_value = $2, changed_at = $3 WHERE id = $4 AND firing = $5 RETURNING id',
            [c.firing, c.lastValue, c.changedAt, c.ruleId, c.wasFiring],
          );
          if (updated.rows.length === 0 || c.event === undefined) continue;
          const e = c.event;
          await client.query(
            'INSERT INTO watch_events (id, rule_id, created_at, body, webhook_url, status) VALUES ($1, $2, $3, $4, $5, $6)',
            [e.id, c.ruleId, e.createdAt, e.body, e.webhookUrl, e.webhookUrl === null ? 'unsent' : 'pending'],
          );
          recorded.push(e.id);
        }
        await client.query('COMMIT');
        return recorded;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw toPgDatabaseError(error, session.url);
      } finally {
        client.release();
      }
    },
    pending: () =>
      q<StoredWatchEvent>(
        `SELECT ${EVENT_COLUMNS} FROM watch_events WHERE status = 'pending' ORDER BY ${EVENT_ORDER}`,
      ),
    async delivery(id: string, outcome: DeliveryOutcome): Promise<void> {
      await q(
        `UPDATE watch_events SET attempts = attempts + $1, last_attempt_at = $2, last_error = $3::text,
           status = CASE WHEN $3::text IS NULL THEN 'delivered' ELSE status END,
           delivered_at = CASE WHEN $3::text IS NULL THEN $2 ELSE delivered_at END
         WHERE id = $4 AND status = 'pending'`,
        [outcome.attempts, outcome.at, outcome.error, id],
      );
    },
    events: (limit: number, status?: DeliveryStatus) =>
      status === undefined
        ? q<StoredWatchEvent>(`SELECT ${EVENT_COLUMNS} FROM watch_events ORDER BY ${NEWEST_FIRST} LIMIT $1`, [
            limit,
          ])
        : q<StoredWatchEvent>(
            `SELECT ${EVENT_COLUMNS} FROM watch_events WHERE status = $1 ORDER BY ${NEWEST_FIRST} LIMIT $2`,
            [status, limit],
          ),
  };
}
