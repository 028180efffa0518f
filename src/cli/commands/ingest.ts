/**
 * `oracle ingest <source...>`: checks the flags, hands the sources to the service's ingestAll
 * (which opens, creating, the database and ingests each in turn), and prints one summary line
 * per source on stdout as it ends (a failed source's error also on stderr).
 * A progress bar is drawn on stderr only when stderr is a terminal.
 */
import type { IngestResult } from '../../ingest/pipeline.js';
import { tcgcsvGroupsSource } from '../../ingest/read/tcgcsv-groups-source.js';
import { createProgressBar } from '../format/ingest-progress.js';
import { wrapLine } from '../format/terminal.js';
import { describeLocation } from '../../store/location.js';
import { ingestOptions, optionsOf } from '../command-options.js';
import type { CommandContext } from '../context.js';
import { EXIT, exitCodeFor, UsageError, worseExit } from '../exit-codes.js';
import { reportError } from '../report-error.js';
import { withService } from '../open-service.js';
import { inert } from '../format/inert.js';
import { capYoungGeneration, keepIngestObjectsYoung } from '../ingest-heap.js';

export async function run(args: unknown[], ctx: CommandContext): Promise<number> {
  const sources = args[0] as string[];
  const flags = optionsOf(ctx, ingestOptions);
  const { maxRejects, lockWait: lockWaitS } = flags;
  if (sources.filter((s) => s === '-').length > 1) throw new UsageError("stdin ('-') can be given only once");
  // Only a catalog read takes set names and dates from a groups file: never ignore it silently.
  if (flags.groups !== undefined && flags.kind !== 'catalog') {
    throw new UsageError(
      '--groups is read only by a catalog ingest: add --kind catalog, or drop --groups to ingest observations',
    );
  }

  keepIngestObjectsYoung();
  const progress = ctx.stderr.isTTY ? createProgressBar(ctx.stderr) : null;
  // Ctrl-C or SIGTERM: stop after committing what was read. A second signal kills at once
  // (the listener is gone); SQLite's transactions keep the file consistent either way.
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort('SIGINT');
  const onSigterm = () => interrupt.abort('SIGTERM');
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigterm);
  // Another ingest may hold the write lock for a while: wait for it, and say so on a terminal.
  const lockWait = {
    maxWaitMs: lockWaitS * 1000,
    onWait: ctx.stderr.isTTY
      ? () => {
          progress?.clear();
          ctx.stderr.write(lockWaitLine(ctx.dbPath, lockWaitS));
        }
      : undefined,
  };
  // The run's clock: the program's (ctx.now, injected by tests), advancing with the time the
  // ingest takes, so a future observation and --observed-at are judged by the same clock.
  const startedAt = Date.now();
  const clock = () => ctx.now + (Date.now() - startedAt);
  // Every source is read: a bad one stops only itself, and the exit code is the worst of all.
  let code: number = EXIT.ok;
  const report = (result: IngestResult) => {
    progress?.clear();
    // Wrapped for a person at a terminal; a pipe or a log file keeps one line per source, for grep.
    ctx.stdout.write(
      `${ctx.stdout.isTTY ? summaryLines(result, ctx.terminal.width) : summaryText(result)}\n`,
    );
    for (const warning of result.warnings) ctx.stderr.write(`oracle: warning: ${inert(warning)}\n`);
    if (result.failure !== null) {
      reportError(result.failure, ctx);
      code = worseExit(code, exitCodeFor(result.failure));
    } else if (result.overLimit) {
      const first = result.firstReject as { line: number; reason: string };
      ctx.stderr.write(
        `oracle: ${result.source}:${first.line}: ${count(result.counts.rejected)} record${result.counts.rejected === 1 ? '' : 's'} rejected, ` +
          `more than --max-rejects ${maxRejects}${flags.rejects ? ` (see ${flags.rejects})` : ''}; first: ${inert(first.reason)}\n`,
      );
      code = worseExit(code, EXIT.tooManyRejects);
    }
  };
  try {
    await withService(
      ctx,
      (service) =>
        service.ingestAll({
          sources,
          kind: flags.kind,
          format: flags.format,
          dryRun: flags.dryRun === true,
          maxRejects,
          observedAt: flags.observedAt,
          subtype: flags.subtype,
          groups: flags.groups === undefined ? undefined : tcgcsvGroupsSource(flags.groups),
          rejectsPath: flags.rejects,
          runAt: ctx.now,
          signal: interrupt.signal,
          clock,
          stdin: ctx.stdin,
          onProgress: (p) => {
            capYoungGeneration();
            progress?.update(p);
          },
          onResult: report,
        }),
      { create: true, lockWait },
    );
  } finally {
    progress?.clear();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
  }
  return code;
}

const count = (n: number) => n.toLocaleString('en-US');

/** What a terminal is told while another writer holds the database: named without a URL's password. */
export function lockWaitLine(location: string, lockWaitS: number): string {
  return `oracle: another process is writing ${describeLocation(location)}: waiting for it (up to ${lockWaitS} s, --lock-wait)...\n`;
}

/**
 * `ingested obs.csv: read 10, inserted 8, duplicates 2, rejected 0 in 0.1 s`; catalog
 * sources add `updated`; a dry run says `checked ... (dry run)` and `would insert`; a source
 * that stopped early says `failed ...` with what it kept (its error goes to stderr).
 */
function summaryLine(result: IngestResult): { head: string; body: string } {
  const { counts } = result;
  const parts = [
    `read ${count(counts.read)}`,
    `${result.dryRun ? 'would insert' : 'inserted'} ${count(counts.inserted)}`,
  ];
  if (result.kinds.includes('catalog'))
    parts.push(`${result.dryRun ? 'would update' : 'updated'} ${count(counts.updated)}`);
  parts.push(`duplicates ${count(counts.duplicates)}`, `rejected ${count(counts.rejected)}`);
  if (counts.skipped > 0) {
    const reasons = Object.entries(counts.skippedBy).map(([reason, n]) => `${reason} ${count(n)}`);
    parts.push(`skipped ${count(counts.skipped)} (${reasons.join(', ')})`);
  }
  const head =
    result.failure !== null
      ? `failed ${result.source}`
      : result.dryRun
        ? `checked ${result.source} (dry run)`
        : `ingested ${result.source}`;
  return { head, body: `${parts.join(', ')} in ${(result.elapsedMs / 1000).toFixed(1)} s` };
}

/** The summary as one line. */
function summaryText(result: IngestResult): string {
  const { head, body } = summaryLine(result);
  return `${head}: ${body}`;
}

/** The summary on one line when it fits `width`, else the source on its line and the counts wrapped under it. */
export function summaryLines(result: IngestResult, width: number): string {
  const { head, body } = summaryLine(result);
  const line = `${head}: ${body}`;
  return line.length <= width
    ? line
    : [...wrapLine(`${head}:`, width), ...wrapLine(`  ${body}`, width)].join('\n');
}
