/**
 * Reporting of adverts sent to the service: a line per advert (created, updated, failed), the
 * service's error tree pointing back at the YAML lines, and a summary; or one JSON document.
 */
import { SAME_ERROR, shownBefore } from '../../output/repeated-error.js';
import { jsonText } from '../../output/json-output.js';
import type { Context } from '../../context.js';
import { ApiError, ExitCode, type JobsError } from '../../../core/errors/failures.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { renamed } from '../../output/renamed.js';
import { treeLines } from '../../../core/api/api-errors.js';
import { formatFinding, shownFile, type Finding } from '../../../core/errors/findings.js';
import { findingsFromTree } from '../../../core/validation/tree-findings.js';
import { formatEntry, writerFor, type ReportCase } from '../../output/format-registry.js';
import { writeReport } from '../../output/findings-report.js';
import { failureFindings } from '../../../core/publishing/failure-findings.js';
import { paint } from '../../output/summary.js';
import { plural } from '../../../core/util/plural.js';
import type { CheckedAdvert } from '../../../core/validation/check.js';
import { isJson } from '../../output/command-io.js';

export interface SendOutcome {
  advert: CheckedAdvert;
  /** created, updated, deleted, ... or failed. */
  status: string;
  error?: JobsError;
}

export function errorFindings(outcome: SendOutcome): Finding[] {
  const { error, advert } = outcome;
  if (error instanceof ApiError && error.tree) return findingsFromTree(error.tree, advert.source, advert.reference, { value: advert.payload });
  return [];
}

export function outcomeJson(o: SendOutcome) {
  return {
    file: o.advert.source.file,
    document: o.advert.source.index,
    reference: o.advert.reference ?? null,
    status: o.status,
    ...(o.error
      ? {
          error: {
            message: o.error.message,
            exit_code: o.error.exitCode,
            ...(o.error instanceof ApiError ? { status: o.error.status ?? null, kind: o.error.kind, errors: o.error.tree ?? null } : {}),
            findings: errorFindings(o),
          },
        }
      : {}),
  };
}

/** Writes one advert's line(s); `log` writes to stdout (a progress display passes its own). */
export function writeOutcome(ctx: Context, o: SendOutcome, log: (text: string) => void = (t) => ctx.io.stdout.write(t)): void {
  if (formatEntry(ctx.globals.output).document) return;
  const c = paint(ctx, ctx.io.stdout);
  const name = sanitize(o.advert.reference ?? '(no reference)');
  const where = o.advert.source.file ? `${shownFile(o.advert.source.file)}:${o.advert.source.locate([]).line}` : '';
  if (!o.error) {
    if (!ctx.globals.quiet) log(`${c.green('✔')} ${o.status} ${c.bold(name)}${where ? ` ${c.dim(where)}` : ''}\n`);
    return;
  }
  const findings = errorFindings(o);
  const lines: string[] = [];
  const line = writerFor(ctx.globals.output)?.line;
  if (line) {
    for (const f of failureFindings(o.error, o.advert.source, o.advert.reference)) lines.push(line(f));
  } else if (shownBefore(o.error)) {
    lines.push(`${c.red('✖')} failed ${c.bold(name)}${where ? ` ${c.dim(where)}` : ''}: ${SAME_ERROR}`);
  } else {
    lines.push(`${c.red('✖')} failed ${c.bold(name)}${where ? ` ${c.dim(where)}` : ''}: ${sanitize(o.error.message)}`);
    for (const f of findings) lines.push(`    ${formatFinding(f)}`);
    // The tree's lines are already shown above, pointing at the file; keep only the other details.
    const shown = new Set(o.error instanceof ApiError && o.error.tree ? treeLines(o.error.tree) : []);
    for (const line of o.error.details) if (!shown.has(line)) lines.push(`    ${sanitize(renamed(line, ctx.name))}`);
  }
  log(`${lines.join('\n')}\n`);
}

/**
 * What a run keeps of an outcome once its line is written: what the summary needs (the JSON result,
 * the report formats' case with its findings), not the advert, so that a run of many adverts holds
 * no payload.
 */
export interface SentRecord {
  status: string;
  error?: JobsError;
  json?: ReturnType<typeof outcomeJson>;
  case?: ReportCase;
}

/** True when the run ends with a report document (SARIF, JUnit, Code Quality) built from its cases. */
export const reportsCases = (ctx: Context) => formatEntry(ctx.globals.output).document && writerFor(ctx.globals.output) !== undefined;

export function sentRecord(ctx: Context, o: SendOutcome): SentRecord {
  const { source, reference } = o.advert;
  return {
    status: o.status,
    ...(o.error ? { error: o.error } : {}),
    ...(isJson(ctx) ? { json: outcomeJson(o) } : {}),
    ...(reportsCases(ctx)
      ? {
          case: {
            file: source.file,
            name: reference ?? '(no reference)',
            line: source.locate([]).line,
            findings: o.error ? failureFindings(o.error, source, reference) : [],
          },
        }
      : {}),
  };
}

/** An advert that could not be read again to be sent (its file changed since it was checked). */
export function unreadRecord(
  ctx: Context,
  where: { file: string; document: number; reference: string },
  error: JobsError,
  log: (text: string) => void,
): SentRecord {
  const finding: Finding = { kind: 'file', file: where.file, path: '', message: 'failed', text: error.message, rule: 'failed', reference: where.reference };
  const line = writerFor(ctx.globals.output)?.line;
  if (line) log(`${line(finding)}\n`);
  else if (!formatEntry(ctx.globals.output).document) {
    const c = paint(ctx, ctx.io.stdout);
    log(
      `${c.red('✖')} failed ${c.bold(sanitize(where.reference))} ${c.dim(shownFile(where.file))}: ${sanitize(error.message)}\n${error.details.map((d) => `    ${sanitize(renamed(d, ctx.name))}\n`).join('')}`,
    );
  }
  const json = {
    file: where.file,
    document: where.document,
    reference: where.reference,
    status: 'failed',
    error: { message: error.message, exit_code: error.exitCode, findings: [] },
  };
  return {
    status: 'failed',
    error,
    ...(isJson(ctx) ? { json } : {}),
    ...(reportsCases(ctx) ? { case: { file: where.file, name: where.reference, findings: [finding] } } : {}),
  };
}

/** Exit code of a run: 0 when all succeeded, the failures' shared code, else 1. */
export function exitCodeFor(outcomes: readonly { error?: JobsError }[]): number {
  const codes = new Set(outcomes.filter((o) => o.error).map((o) => o.error!.exitCode));
  if (codes.size === 0) return ExitCode.ok;
  return codes.size === 1 ? [...codes][0]! : ExitCode.rejected;
}

export function writeSummary(ctx: Context, outcomes: readonly SentRecord[], notStarted: number): void {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
  if (reportsCases(ctx)) writeReport(ctx, { cases: outcomes.flatMap((o) => o.case ?? []) });
  if (isJson(ctx)) {
    ctx.io.stdout.write(
      jsonText({
        results: outcomes.map((o) => o.json),
        summary: { ...Object.fromEntries(counts), not_started: notStarted, total: outcomes.length + notStarted },
      }),
    );
    return;
  }
  if (ctx.globals.quiet && !counts.get('failed')) return;
  const c = paint(ctx, ctx.io.stderr);
  const parts = [...counts].map(([status, n]) => `${n} ${status}`);
  if (notStarted) parts.push(`${notStarted} not started`);
  const failed = counts.get('failed') ?? 0;
  const line = `${plural(outcomes.length + notStarted, 'advert')}: ${parts.join(', ')}`;
  ctx.io.stderr.write(`${failed || notStarted ? c.red(`✖ ${line}`) : c.green(`✔ ${line}`)}\n`);
}
