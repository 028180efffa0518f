/**
 * The calibrations table: one row per `oracle calibrate` fit, its tables as JSON. The store
 * only reads and writes rows; the fit itself is pure engine code (src/engine/calibration.ts).
 */
import type { StoredCalibration } from '../store.js';
import { type SqliteDatabase } from './connection.js';
import { onFirstUse } from '../../domain/first-use.js';

interface Row {
  id: number;
  as_of: number;
  created_at: number;
  body: string;
}

const toStored = (row: Row | undefined): StoredCalibration | null =>
  row === undefined ? null : { id: row.id, asOf: row.as_of, createdAt: row.created_at, body: row.body };

export function createCalibrationRepo(db: SqliteDatabase) {
  const insert = onFirstUse(() =>
    db.prepare('INSERT INTO calibrations (as_of, created_at, body) VALUES (?, ?, ?)'),
  );
  // The newest fit usable at an instant: fitted on data before it (ties: the latest written).
  const usableAt = onFirstUse(() =>
    db.prepare<[number], Row>(
      'SELECT id, as_of, created_at, body FROM calibrations WHERE as_of <= ? ORDER BY as_of DESC, id DESC LIMIT 1',
    ),
  );
  const all = onFirstUse(() =>
    db.prepare<[], Row>('SELECT id, as_of, created_at, body FROM calibrations ORDER BY as_of, id'),
  );
  return {
    insert(asOf: number, createdAt: number, body: string): number {
      return Number(insert().run(asOf, createdAt, body).lastInsertRowid);
    },
    /** The newest calibration fitted as of `at` or earlier, or null. */
    usableAt: (at: number): StoredCalibration | null => toStored(usableAt().get(at)),
    /** Every stored calibration, oldest `as_of` first (same `as_of`: in the order written). */
    all: (): StoredCalibration[] =>
      all()
        .all()
        .map((row) => toStored(row)!),
  };
}

export type CalibrationRepo = ReturnType<typeof createCalibrationRepo>;
