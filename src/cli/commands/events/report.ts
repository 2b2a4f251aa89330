/**
 * Output of a bulk events run: a line per entry on stdout (or an NDJSON object per entry with
 * --json), then a summary (on stderr in human mode, a last NDJSON object with --json).
 */
import { jsonText } from '../../output/json-output.js';
import type { Context } from '../../context.js';
import { ApiError, type ApiErrorKind } from '../../../core/errors/failures.js';
import { treeLines } from '../../../core/api/api-errors.js';
import { formatFinding, type Finding } from '../../../core/errors/findings.js';
import { findingsFromTree } from '../../../core/validation/tree-findings.js';
import { formatEntry, writerFor, type ReportCase } from '../../output/format-registry.js';
import { writeReport } from '../../output/findings-report.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { renamed } from '../../output/renamed.js';
import { paint } from '../../output/summary.js';
import { plural } from '../../../core/util/plural.js';
import { emptyCounts, exitCodeOf, requestOf, resultCode, type EntryResult, type EntryStatus } from '../../../core/events/outcomes.js';
import { isJson } from '../../output/command-io.js';

export { emptyCounts, exitCodeOf, requestOf, resultCode, type EntryResult, type EntryStatus };

export interface RunSummary {
  file: string;
  journal: string | undefined;
  dryRun: boolean;
  total: number;
  counts: Record<EntryStatus, number>;
  notStarted: number;
  interrupted: boolean;
  /** The failed entries by what a rerun would do with them (see failureClass). */
  failures?: Record<FailureClass, number>;
}

/** What a rerun does with a failed event: post it (transient), or get the same answer again. */
export type FailureClass = 'transient' | 'not_found' | 'rejected' | 'unauthorized';

export function failureClass(error: unknown): FailureClass {
  if (!(error instanceof ApiError)) return 'transient';
  switch (error.kind) {
    case 'not_found':
      return 'not_found';
    case 'unauthorized':
      return 'unauthorized';
    case 'rejected':
    case 'bad_response':
      return 'rejected';
    default:
      return 'transient';
  }
}

/** What to do about the failed events: a rerun retries only what failed on the way; a 404 or a 422 comes back the same. */
function failureHints(ctx: Context, s: RunSummary): string[] {
  const f = s.failures ?? { transient: s.counts.failed, not_found: 0, rejected: 0, unauthorized: 0 };
  const hints: string[] = [];
  if (f.unauthorized > 0)
    hints.push(`the token was refused: run '${ctx.name} login' (or set JOBS_TOKEN), then rerun the same command; accepted events are skipped`);
  if (f.not_found > 0) {
    hints.push(
      `${plural(f.not_found, 'event')} name${f.not_found === 1 ? 's' : ''} an application the service does not know (404), and a rerun gets the same answer: check the application_id on ${f.not_found === 1 ? 'that line' : 'those lines'} (a typo, or an application of another client), correct or remove ${f.not_found === 1 ? 'it' : 'them'}, then rerun; accepted events are skipped`,
    );
  }
  if (f.rejected > 0)
    hints.push(
      `${plural(f.rejected, 'event')} ${f.rejected === 1 ? 'was' : 'were'} rejected for what ${f.rejected === 1 ? 'it holds' : 'they hold'} (see above): correct ${f.rejected === 1 ? 'that line' : 'those lines'}, then rerun; accepted events are skipped`,
    );
  if (f.transient > 0)
    hints.push(
      `rerun the same command to retry the ${plural(f.transient, 'event')} that failed on the way (network, timeout, service error or quota); accepted ones are skipped`,
    );
  return hints;
}

/** The identifier a status already says in the error's message (`not found (404)`): not repeated below it. */
const SAID_BY_STATUS: Partial<Record<ApiErrorKind, string>> = { unauthorized: 'unauthorized', not_found: 'not_found', quota: 'quota_exceeded' };

/** The service's error tree pointed at the entry's fields. */
function errorFindings(r: EntryResult): Finding[] {
  if (!(r.error instanceof ApiError) || !r.error.tree) return [];
  const { entry } = r;
  const said = SAID_BY_STATUS[r.error.kind];
  const locate = (path: readonly (string | number)[]) => entry.fieldPositions.get(String(path[0])) ?? entry.position;
  return findingsFromTree(r.error.tree, { file: entry.file, locate }).filter((f) => !(f.path === '' && f.message === said));
}

export function resultJson(r: EntryResult) {
  const { entry, error } = r;
  return {
    file: entry.file,
    line: entry.position.line,
    application_id: entry.application_id,
    kind: entry.kind,
    key: r.key,
    status: r.status,
    ...(r.previous ? { previous_status: r.previous } : {}),
    ...(r.status === 'would_post' ? { request: requestOf(entry) } : {}),
    ...(error
      ? {
          error: {
            message: error.message,
            exit_code: error.exitCode,
            ...(error instanceof ApiError ? { status: error.status ?? null, kind: error.kind, errors: error.tree ?? null } : {}),
            details: error.details,
            findings: errorFindings(r),
          },
        }
      : {}),
  };
}

/** Skipped entries are listed in a dry run (it shows what the journal skips) and with --verbose; counted otherwise. */
export function writeResult(ctx: Context, r: EntryResult, dryRun = false): void {
  const out = ctx.io.stdout;
  if (isJson(ctx)) {
    out.write(jsonText(resultJson(r)));
    return;
  }
  if (formatEntry(ctx.globals.output).document) {
    if (writerFor(ctx.globals.output)) keptCases(ctx).push(caseOf(r));
    return;
  }
  const { quiet, verbose } = ctx.globals;
  const c = paint(ctx, out);
  const { entry } = r;
  const name = `${entry.kind} ${c.bold(sanitize(entry.application_id))} ${c.dim(`(${sanitize(entry.file)}:${entry.position.line})`)}`;
  switch (r.status) {
    case 'posted':
      if (!quiet) out.write(`${c.green('✔')} ${name}\n`);
      return;
    case 'skipped':
      if (verbose || (dryRun && !quiet)) out.write(`${c.dim('-')} ${name}: skipped: accepted in an earlier run\n`);
      return;
    case 'held':
      out.write(`${c.yellow('⚠')} ${name}: not posted: uncertain in an earlier run (--retry-uncertain posts it again)\n`);
      return;
    case 'would_post': {
      const request = requestOf(entry);
      out.write(`${c.cyan('→')} ${name}: would post ${request.method} ${sanitize(request.path)} ${sanitize(JSON.stringify(request.body))}\n`);
      return;
    }
    case 'uncertain':
    case 'failed':
      writeProblem(ctx, r, name);
  }
}

/** A run's cases for its report document, kept until the summary writes it. */
const cases = new WeakMap<Context, ReportCase[]>();
function keptCases(ctx: Context): ReportCase[] {
  let kept = cases.get(ctx);
  if (!kept) cases.set(ctx, (kept = []));
  return kept;
}

const SKIPPED: Partial<Record<EntryStatus, string>> = { skipped: 'accepted in an earlier run', would_post: 'dry run: would post' };

function caseOf(r: EntryResult): ReportCase {
  const { entry } = r;
  const skipped = SKIPPED[r.status];
  return {
    file: entry.file,
    name: `${entry.kind} ${entry.application_id}`,
    line: entry.position.line,
    findings: r.error || r.status === 'held' ? problemFindings(r) : [],
    ...(skipped ? { skipped } : {}),
  };
}

/** An entry's problem at the fields the service named, or at the entry's line. */
function problemFindings(r: EntryResult): Finding[] {
  const findings = errorFindings(r);
  if (findings.length > 0) return findings;
  const text =
    r.status === 'held'
      ? 'not posted: uncertain in an earlier run (--retry-uncertain posts it again)'
      : `${r.status === 'uncertain' ? 'uncertain: ' : ''}${r.error?.message ?? r.status}`;
  return [
    { kind: 'file', file: r.entry.file, line: r.entry.position.line, column: r.entry.position.column, path: '', message: r.status, text, rule: r.status },
  ];
}

function writeProblem(ctx: Context, r: EntryResult, name: string): void {
  const out = ctx.io.stdout;
  const error = r.error!;
  const findings = errorFindings(r);
  const line = writerFor(ctx.globals.output)?.line;
  if (line) {
    for (const f of problemFindings(r)) out.write(`${line(f)}\n`);
    return;
  }
  const c = paint(ctx, out);
  const mark = r.status === 'uncertain' ? `${c.yellow('⚠')}` : c.red('✖');
  out.write(`${mark} ${name}: ${r.status === 'uncertain' ? 'uncertain: ' : ''}${sanitize(error.message)}\n`);
  // A `base` message belongs to the whole event, not to an advert.
  for (const f of findings) out.write(`    ${formatFinding({ ...f, path: f.path || '(event)' })}\n`);
  const shown = new Set(error instanceof ApiError && error.tree ? treeLines(error.tree) : []);
  for (const line of error.details) if (!shown.has(line)) out.write(`    ${sanitize(renamed(line, ctx.name))}\n`);
}

export function writeSummary(ctx: Context, s: RunSummary): void {
  const { counts } = s;
  if (writerFor(ctx.globals.output) && formatEntry(ctx.globals.output).document) {
    writeReport(ctx, { cases: cases.get(ctx) ?? [] });
    return;
  }
  if (isJson(ctx)) {
    const { would_post, ...rest } = counts;
    ctx.io.stdout.write(
      jsonText({
        summary: {
          file: s.file,
          journal: s.journal ?? null,
          dry_run: s.dryRun,
          total: s.total,
          ...rest,
          ...(s.dryRun ? { would_post } : {}),
          not_started: s.notStarted,
          interrupted: s.interrupted,
        },
      }),
    );
    return;
  }
  const trouble = counts.failed + counts.uncertain + counts.held + s.notStarted > 0;
  if (ctx.globals.quiet && !trouble) return;
  const err = ctx.io.stderr;
  const c = paint(ctx, err);
  const parts: string[] = [];
  if (s.dryRun) parts.push(`${counts.would_post} would be posted`);
  else parts.push(`${counts.posted} posted`);
  if (counts.skipped) parts.push(`${counts.skipped} skipped as already done`);
  if (counts.uncertain) parts.push(`${counts.uncertain} uncertain`);
  if (counts.held) parts.push(`${counts.held} held as uncertain from an earlier run`);
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (s.notStarted) parts.push(`${s.notStarted} not started`);
  const line = `${sanitize(s.file)}: ${plural(s.total, 'event')}: ${parts.join(', ')}`;
  if (s.dryRun) {
    err.write(`dry run: ${line}; nothing was sent\n`);
    return;
  }
  err.write(`${trouble ? c.red(`✖ ${line}`) : c.green(`✔ ${line}`)}\n`);
  if (s.journal) err.write(`  journal: ${sanitize(s.journal)}\n`);
  if (counts.uncertain + counts.held > 0) {
    err.write('  uncertain events may have been recorded by the service; check, then rerun with --retry-uncertain to post them again\n');
  }
  if (counts.failed > 0) for (const hint of failureHints(ctx, s)) err.write(`  ${hint}\n`);
  if (s.interrupted) err.write('  interrupted: rerun the same command to post the rest\n');
}
