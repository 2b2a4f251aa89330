/** What a sync shows: the plan (like `terraform plan`), a line per result, and a summary. */
import { SAME_ERROR, shownBefore } from '../../output/repeated-error.js';
import { jsonText } from '../../output/json-output.js';
import type { Context } from '../../context.js';
import { ApiError } from '../../../core/errors/failures.js';
import { formatFinding, shownFile } from '../../../core/errors/findings.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { renamed } from '../../output/renamed.js';
import { paint } from '../../output/summary.js';
import { plural } from '../../../core/util/plural.js';
import { treeLines } from '../../../core/api/api-errors.js';
import type { Finding } from '../../../core/errors/findings.js';
import { failureFindings } from '../../../core/publishing/failure-findings.js';
import { formatEntry, writerFor } from '../../output/format-registry.js';
import { writeReport } from '../../output/findings-report.js';
import type { ChangeResult } from '../../../core/sync/execute.js';
import type { Plan, PlannedChange } from '../../../core/sync/plan.js';
import { outcomeCounts, plannedEntry, syncedEntry } from '../../../core/sync/sync-folder.js';
import { isJson } from '../../output/command-io.js';

const json = (ctx: Context) => isJson(ctx);

export function writePlan(ctx: Context, plan: Plan, options: { dryRun: boolean; statePath: string }): void {
  const out = ctx.io.stdout;
  if (json(ctx)) {
    if (!options.dryRun) return;
    for (const c of plan.changes) {
      if (c.action === 'unchanged' && !ctx.globals.verbose) continue;
      out.write(jsonText({ type: 'plan', ...plannedEntry(c) }));
    }
    out.write(jsonText({ type: 'plan_summary', ...plan.counts, state: options.statePath }));
    return;
  }
  // A report format's dry run lists each change as a skipped case: planned, not sent.
  if (options.dryRun && writerFor(ctx.globals.output) && formatEntry(ctx.globals.output).document) {
    const cases = plan.changes
      .filter((c) => c.action !== 'unchanged' && c.action !== 'closed')
      .map((c) => ({ file: c.source ?? c.file, name: c.reference, findings: [], skipped: `dry run: would ${wouldDo(c)}` }));
    writeReport(ctx, { cases });
  }
  if (ctx.globals.quiet && options.dryRun === false) return;
  const c = paint(ctx, out);
  // With a report document (SARIF, JUnit, ...), stdout holds that document; the counts below still go to stderr.
  for (const change of formatEntry(ctx.globals.output).document ? [] : plan.changes) {
    const ref = c.bold(sanitize(change.reference));
    // An advert for one of several places names its file's advert: `(place of ACME-0042)`.
    const place = change.group === undefined ? '' : `place of ${sanitize(change.group)}`;
    const gone = place ? `${place}, gone from its locations` : 'gone from the folder';
    switch (change.action) {
      case 'create':
        out.write(`${c.green('+')} ${ref}  ${c.dim(shownFile(change.file))}${place ? `  (${place})` : ''}\n`);
        break;
      case 'update':
        out.write(
          `${c.yellow('~')} ${ref}  ${c.dim(shownFile(change.file))}${place ? `  (${place})` : ''}${change.changed?.length ? `  (${change.changed.join(', ')})` : ''}\n`,
        );
        for (const field of change.removed ?? []) {
          out.write(`    ${c.yellow('!')} ${field}: removed from the file, but the interface cannot clear a field: the service keeps its last value\n`);
        }
        break;
      case 'delete':
        if (change.closed !== undefined) out.write(`${c.red('-')} ${ref} (closed ${change.closed})  ${c.dim(shownFile(change.file))}\n`);
        else if (change.opens !== undefined)
          out.write(`${c.red('-')} ${ref} (opens ${change.opens})  ${c.dim(shownFile(change.file))}  (published before its opening date)\n`);
        else out.write(`${c.red('-')} ${ref}  ${c.dim(shownFile(change.file))}  (${gone})\n`);
        break;
      case 'waiting':
        // Planned, not sent: it is created on its opening day.
        out.write(`${c.dim('+')} ${ref} (opens ${change.opens})  ${c.dim(shownFile(change.file))}\n`);
        break;
      case 'closed':
        if (ctx.globals.verbose) out.write(`  ${ref} (closed ${change.closed})  ${c.dim(shownFile(change.file))}  (not on the service)\n`);
        break;
      case 'orphan':
        out.write(`${c.magenta('?')} ${ref}  ${c.dim(shownFile(change.file))}  (${gone}; left on the service: --prune deletes it)\n`);
        break;
      default:
        if (ctx.globals.verbose) out.write(`  ${ref}  ${c.dim(shownFile(change.file))}  (${place ? `${place}, ` : ''}unchanged)\n`);
    }
  }
  const n = plan.counts;
  const parts = [`${n.create} to create`, `${n.update} to update`, `${n.delete} to delete`, `${n.unchanged} unchanged`];
  if (n.orphan) parts.push(`${plural(n.orphan, 'orphan')}`);
  if (n.waiting) parts.push(`${n.waiting} not open yet`);
  if (n.closed) parts.push(`${n.closed} closed`);
  ctx.io.stderr.write(`Plan: ${parts.join(', ')}.${options.dryRun ? ' (dry run: nothing was sent)' : ''}\n`);
}

export function writeResult(ctx: Context, result: ChangeResult, log: (line: string) => void): void {
  const { change, error } = result;
  if (json(ctx)) {
    log(jsonText({ type: 'result', ...syncedEntry(result) }));
    return;
  }
  const line = writerFor(ctx.globals.output)?.line;
  if (line) {
    // A line for each failure only (GitHub annotations).
    if (error)
      log(
        failuresOf([result])
          .map((f) => `${line(f)}\n`)
          .join(''),
      );
    return;
  }
  // The report documents gather every result at the end (writeSummary).
  if (formatEntry(ctx.globals.output).document) return;
  const c = paint(ctx, ctx.io.stdout);
  const ref = c.bold(sanitize(change.reference));
  if (!error) {
    if (!ctx.globals.quiet) log(`${c.green('✔')} ${result.status} ${ref}\n`);
    return;
  }
  if (shownBefore(error)) {
    log(`${c.red('✖')} failed ${ref} ${c.dim(shownFile(change.file))}: ${SAME_ERROR}\n`);
    return;
  }
  let lines = `${c.red('✖')} failed ${ref} ${c.dim(shownFile(change.file))}: ${sanitize(error.message)}\n`;
  const tree = error instanceof ApiError ? error.tree : undefined;
  for (const f of result.findings ?? []) if (f.kind === 'field') lines += `    ${formatFinding(f)}\n`;
  const shown = new Set(tree ? treeLines(tree) : []);
  for (const d of error.details) if (!shown.has(d)) lines += `    ${sanitize(renamed(d, ctx.name))}\n`;
  log(lines);
}

export function writeSummary(ctx: Context, plan: Plan, results: readonly ChangeResult[], notStarted: number): void {
  const counts: Record<string, number> = {};
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
  const failed = counts.failed ?? 0;
  if (!json(ctx) && formatEntry(ctx.globals.output).document) {
    writeReport(ctx, { cases: results.map((r) => ({ file: r.change.source ?? r.change.file, name: r.change.reference, findings: failuresOf([r]) })) });
  }
  if (json(ctx)) {
    ctx.io.stdout.write(jsonText({ type: 'summary', ...outcomeCounts(plan, results, notStarted) }));
    return;
  }
  const parts = Object.entries(counts).map(([k, v]) => `${v} ${k}`);
  parts.push(`${plan.counts.unchanged} unchanged`);
  if (plan.counts.orphan) parts.push(plural(plan.counts.orphan, 'orphan'));
  if (plan.counts.waiting) parts.push(`${plan.counts.waiting} not open yet`);
  if (notStarted) parts.push(`${notStarted} not started`);
  const c = paint(ctx, ctx.io.stderr);
  // No request, no word from the service on the token: a green run must not pass for a checked one
  // (a request to check it would cost every no-op sync a round trip, and its offline runs).
  const unchecked = results.length === 0 && notStarted === 0 ? ` (nothing was sent, so the token was not checked: '${ctx.name} doctor' checks it)` : '';
  ctx.io.stderr.write(`${failed || notStarted ? c.red('✖ sync incomplete:') : c.green('✔ in sync:')} ${parts.join(', ')}${unchecked}\n`);
}

/** What a dry run would do with a change, as a report format's skipped case says it. */
function wouldDo(change: PlannedChange): string {
  if (change.action === 'orphan') return 'leave the orphan';
  if (change.action === 'waiting') return `wait: opens ${change.opens}`;
  if (change.action === 'closed') return `leave it: closed ${change.closed}`;
  if (change.action === 'delete' && change.closed !== undefined) return `delete: closed ${change.closed}`;
  return change.action;
}

/** The failures as findings: the service's errors at their YAML lines, or one per advert. */
function failuresOf(results: readonly ChangeResult[]): Finding[] {
  return results.flatMap((r) =>
    r.error ? (r.findings ?? failureFindings(r.error, r.change.advert?.source ?? { file: r.change.file }, r.change.reference)) : [],
  );
}
