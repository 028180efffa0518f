/**
 * Watch rules and the outbox of their events (docs/alerts.md). A check's state changes and
 * the events they make commit in one transaction, each change only when its rule is still as
 * the check read it, so two checks at once (a cron job beside `serve --watch`) record a
 * crossing once.
 */
import type { DeliveryStatus, StoredWatchEvent, WatchDefinition, WatchRule } from '../../domain/watch.js';
import type { DeliveryOutcome, WatchStateChange } from '../store.js';
import { type SqliteDatabase } from './connection.js';
import { onFirstUse } from '../../domain/first-use.js';

export const RULE_COLUMNS = `id, label, product_key AS productKey, slot, kind, amount_minor AS amountMinor, percent, direction,
  span_ms AS spanMs, webhook_url AS webhookUrl, created_at AS createdAt, firing, last_value AS lastValue, changed_at AS changedAt`;

/** Events are ordered by time, then by rule: within one check (one created_at), the order it records them in. */
export const EVENT_COLUMNS = `id, rule_id AS ruleId, created_at AS createdAt, body, webhook_url AS webhookUrl, status, attempts,
  last_attempt_at AS lastAttemptAt, last_error AS lastError, delivered_at AS deliveredAt`;

type RuleRow = Omit<WatchRule, 'firing'> & { firing: number };

const toRule = (row: RuleRow): WatchRule => ({ ...row, firing: row.firing === 1 });

export function createWatchRepo(db: SqliteDatabase) {
  const insert = onFirstUse(() =>
    db.prepare<unknown[], RuleRow>(
      `INSERT INTO watch_rules (label, product_key, slot, kind, amount_minor, percent, direction, span_ms, webhook_url, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${RULE_COLUMNS}`,
    ),
  );
  const all = onFirstUse(() =>
    db.prepare<[], RuleRow>(`SELECT ${RULE_COLUMNS} FROM watch_rules ORDER BY id`),
  );
  const remove = onFirstUse(() => db.prepare('DELETE FROM watch_rules WHERE id = ?'));
  const update = onFirstUse(() =>
    db.prepare(
      'UPDATE watch_rules SET firing = ?, last_value = ?, changed_at = ? WHERE id = ? AND firing = ?',
    ),
  );
  const insertEvent = onFirstUse(() =>
    db.prepare(
      'INSERT INTO watch_events (id, rule_id, created_at, body, webhook_url, status) VALUES (?, ?, ?, ?, ?, ?)',
    ),
  );
  const pending = onFirstUse(() =>
    db.prepare<[], StoredWatchEvent>(
      `SELECT ${EVENT_COLUMNS} FROM watch_events WHERE status = 'pending' ORDER BY created_at, rule_id`,
    ),
  );
  const delivery = onFirstUse(() =>
    db.prepare(
      `UPDATE watch_events SET attempts = attempts + ?, last_attempt_at = ?, last_error = ?,
         status = CASE WHEN ? IS NULL THEN 'delivered' ELSE status END,
         delivered_at = CASE WHEN ? IS NULL THEN ? ELSE delivered_at END
       WHERE id = ? AND status = 'pending'`,
    ),
  );
  const recent = onFirstUse(() =>
    db.prepare<[number], StoredWatchEvent>(
      `SELECT ${EVENT_COLUMNS} FROM watch_events ORDER BY created_at DESC, rule_id DESC LIMIT ?`,
    ),
  );
  const recentOf = onFirstUse(() =>
    db.prepare<[string, number], StoredWatchEvent>(
      `SELECT ${EVENT_COLUMNS} FROM watch_events WHERE status = ? ORDER BY created_at DESC, rule_id DESC LIMIT ?`,
    ),
  );

  // Nothing to change takes no write lock: a check beside a long ingest does not wait for it.
  const record = (changes: readonly WatchStateChange[]): string[] =>
    changes.length === 0
      ? []
      : db
          .transaction(() => {
            const recorded: string[] = [];
            for (const c of changes) {
              const changed =
                update().run(c.firing ? 1 : 0, c.lastValue, c.changedAt, c.ruleId, c.wasFiring ? 1 : 0)
                  .changes > 0;
              if (!changed || c.event === undefined) continue;
              const e = c.event;
              insertEvent().run(
                e.id,
                c.ruleId,
                e.createdAt,
                e.body,
                e.webhookUrl,
                e.webhookUrl === null ? 'unsent' : 'pending',
              );
              recorded.push(e.id);
            }
            return recorded;
          })
          .immediate();

  return {
    add(rule: WatchDefinition, createdAt: number): WatchRule {
      const r = rule;
      return toRule(
        insert().get(
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
        )!,
      );
    },
    rules: (): WatchRule[] => all().all().map(toRule),
    remove: (id: number): boolean => remove().run(id).changes > 0,
    record,
    pending: (): StoredWatchEvent[] => pending().all(),
    delivery(id: string, outcome: DeliveryOutcome): void {
      delivery().run(
        outcome.attempts,
        outcome.at,
        outcome.error,
        outcome.error,
        outcome.error,
        outcome.at,
        id,
      );
    },
    events: (limit: number, status?: DeliveryStatus): StoredWatchEvent[] =>
      status === undefined ? recent().all(limit) : recentOf().all(status, limit),
  };
}

export type WatchRepo = ReturnType<typeof createWatchRepo>;
