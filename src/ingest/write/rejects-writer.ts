/**
 * The --rejects file: one NDJSON line `{run_at, source, line, reason, record}` per rejected
 * record, appended, so a cron job's file keeps every run's rejects (run_at tells runs apart).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { OracleError } from '../../domain/errors.js';

export interface Reject {
  source: string;
  line: number;
  reason: string;
  record: unknown;
}

/** Buffers rejects and appends them at each batch commit, so the file follows the database. */
export class RejectsWriter {
  private readonly fd: number;
  private buffered: string[] = [];
  private readonly runAt: string;

  /** Appends to `path` (created when missing); `runAt` (epoch ms) is the start of the run. */
  constructor(
    readonly path: string,
    runAt: number,
  ) {
    this.runAt = new Date(runAt).toISOString(); // milliseconds: two runs a second apart stay apart
    try {
      this.fd = openSync(path, 'a', 0o600); // rejected records are the feed's data: the owner's alone, like the database
    } catch (error) {
      throw new OracleError(`cannot write the --rejects file ${path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  add(reject: Reject): void {
    this.buffered.push(`${JSON.stringify({ run_at: this.runAt, ...reject })}\n`);
  }

  /** Drops the rejects not yet written: their records were rolled back. */
  discard(): void {
    this.buffered = [];
  }

  flush(): void {
    if (this.buffered.length === 0) return;
    writeSync(this.fd, this.buffered.join(''));
    this.buffered = [];
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
