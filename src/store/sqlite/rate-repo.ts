/** The fx_rates table: the reference exchange rates ingest converts observations with. */
import type { FxRate } from '../store.js';
import { type SqliteDatabase } from './connection.js';
import { onFirstUse } from '../../domain/first-use.js';

export function createRateRepo(db: SqliteDatabase) {
  const insert = onFirstUse(() =>
    db.prepare('INSERT OR IGNORE INTO fx_rates (day, currency, per_euro, source) VALUES (?, ?, ?, ?)'),
  );
  const all = onFirstUse(() =>
    db.prepare<[], FxRate>(
      'SELECT day, currency, per_euro AS perEuro, source FROM fx_rates ORDER BY currency, day',
    ),
  );
  return {
    add(rates: readonly FxRate[]): { inserted: number; duplicates: number } {
      let inserted = 0;
      db.transaction(() => {
        for (const r of rates) inserted += insert().run(r.day, r.currency, r.perEuro, r.source).changes;
      })();
      return { inserted, duplicates: rates.length - inserted };
    },
    all: (): FxRate[] => all().all(),
  };
}
