/**
 * Reading a WAL-mode database where SQLite cannot create its `-shm`: a read-only directory or
 * mount. A reader of a WAL file needs the `-shm` (the log's index) beside it and creates it on
 * first read; SQLite's way around that, the `immutable=1` URI parameter, is out of reach here
 * (this better-sqlite3 build has SQLITE_USE_URI=0 and opens without SQLITE_OPEN_URI). A clean
 * file, its `-wal` absent or without a frame (every change checkpointed into the file, as
 * oracle's writers leave it), holds the whole database: a copy of it in memory, marked as a
 * rollback-journal file, reads exactly as the file would. The copy costs memory, so it has a
 * bound; a file in rollback-journal mode (a `VACUUM INTO` copy) needs none of this and is read
 * in place (docs/deploy.md "Read-only media").
 */
import { closeSync, openSync, readSync, readFileSync, statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The largest file read through a copy in memory. The copy holds the whole file for as long as
 * the connection is open (twice that for a moment while it is read); docs/deploy.md "Read-only
 * media" says what it costs and how many observations such a file holds.
 */
export const READ_ONLY_COPY_MAX_BYTES = 256 * 1024 * 1024;

/** A `-wal` file's header, before its first frame: a log no longer than this holds no change. */
const WAL_HEADER_BYTES = 32;

/**
 * The database header's file format write and read versions: 2 in WAL mode, 1 in rollback-journal
 * mode (sqlite.org/fileformat2.html, 1.3.3). A copy with 1 in both needs no `-shm`.
 */
const FORMAT_VERSION_OFFSETS = [18, 19] as const;
const WAL_FORMAT = 2;
const ROLLBACK_FORMAT = 1;

const mebibytes = (bytes: number) => `${Math.ceil(bytes / 2 ** 20)} MiB`;

/** A file that cannot be read through a copy: why (client-safe: no path), and what to do. */
export interface CopyRefusal {
  reason: string;
  remedy: string;
}

export type ReadOnlyCopy = { bytes: Buffer; note: string } | { refusal: CopyRefusal };

/** Whether the file at `path` is a WAL-mode SQLite database (its header says so). */
function inWalMode(path: string): boolean {
  const header = Buffer.alloc(FORMAT_VERSION_OFFSETS[1] + 1);
  const fd = openSync(path, 'r');
  try {
    if (readSync(fd, header, 0, header.length, 0) < header.length) return false;
  } finally {
    closeSync(fd);
  }
  return FORMAT_VERSION_OFFSETS.every((offset) => header[offset] === WAL_FORMAT);
}

const walBytes = (path: string) => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
const sameContent = (a: Stats, b: Stats) => a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * The WAL-mode file at `path` as a rollback-journal database in memory, for a reader that cannot
 * create the `-shm` in `dir`; or why it cannot be read that way. Null: the file is not in WAL
 * mode, so a copy would not help (its open failed for another reason).
 */
export function readOnlyCopy(path: string, dir: string): ReadOnlyCopy | null {
  if (!inWalMode(path)) return null;
  const file = resolve(path);
  const inPlace = `to read it in place, make ${dir} writable, or put there a copy in rollback-journal mode, made where the database is writable: sqlite3 <database> "VACUUM INTO '<copy>'"`;
  const noShm = 'SQLite cannot create the -shm of this WAL-mode file in its read-only directory';
  if (walBytes(path) > WAL_HEADER_BYTES) {
    return {
      refusal: {
        reason: `${noShm}, and its -wal holds changes not yet in the file, which a copy would miss`,
        remedy: `run any oracle command on ${file} once where it is writable (that moves the changes into the file), or copy the file together with its -wal to a writable place`,
      },
    };
  }
  const before = statSync(path);
  if (before.size > READ_ONLY_COPY_MAX_BYTES) {
    return {
      refusal: {
        reason: `${noShm}, and the file (${mebibytes(before.size)}) is larger than the ${mebibytes(READ_ONLY_COPY_MAX_BYTES)} oracle reads through a copy in memory`,
        remedy: `${inPlace}, or copy it to a writable place`,
      },
    };
  }
  const bytes = readFileSync(path);
  // A writer that started meanwhile (its -wal, a checkpoint into the file) could have torn the copy.
  if (!sameContent(before, statSync(path)) || walBytes(path) > WAL_HEADER_BYTES) {
    return { refusal: { reason: 'the file changed while it was read', remedy: 'try again' } };
  }
  for (const offset of FORMAT_VERSION_OFFSETS) bytes[offset] = ROLLBACK_FORMAT;
  return {
    bytes,
    note: `reading ${file} through a ${mebibytes(bytes.length)} copy in memory: SQLite cannot create the -shm of this WAL-mode file in ${dir}, which is read-only; ${inPlace}`,
  };
}
