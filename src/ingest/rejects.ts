/** The --rejects file: one NDJSON line `{source, line, reason, record}` per rejected record. */
import { closeSync, openSync, writeSync } from 'node:fs';
import { OracleError } from '../domain/errors.js';

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

  /** Creates (or truncates) `path`. */
  constructor(readonly path: string) {
    try {
      this.fd = openSync(path, 'w');
    } catch (error) {
      throw new OracleError(`cannot write the --rejects file ${path}: ${(error as Error).message}`, { cause: error });
    }
  }

  add(reject: Reject): void {
    this.buffered.push(`${JSON.stringify(reject)}\n`);
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
