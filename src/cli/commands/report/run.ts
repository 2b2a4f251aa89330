/** report: build the HTML page (or --json) of the statistics history. */
import type { Context } from '../../context.js';
import { basename, resolve } from 'node:path';
import { replaceFile } from '../../../core/storage/replace.js';
import { cannotWrite } from '../../../core/storage/errors.js';
import { TOOL_FOLDER, prepareToolFolder } from '../../../core/storage/tool-folder.js';
import { History, defaultHistoryDir } from '../../../core/history/store.js';
import { serviceKey } from '../../../core/config/service-key.js';
import { parseWindow } from '../../../core/history/flags.js';
import { buildReportStoppable } from '../../../core/report/model.js';
import { renderReportHtml } from '../../../core/report/html.js';
import { reportJson } from '../../../core/report/json.js';
import { CancelledError, JobsError, UsageError } from '../../../core/errors/failures.js';
import { displayPath } from '../../../core/config/paths.js';
import { nextTurn } from '../../../core/util/next-turn.js';
import { readStats } from '../stats/run.js';
import { recordAndCompare } from '../../../core/history/record.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { liveReferences, readPublished } from '../../../core/published/record.js';
import { clockNow, todayFor } from '../../../core/sync/today.js';
import { jsonText } from '../../output/json-output.js';
import { isJson } from '../../output/command-io.js';

export interface ReportFlags {
  file: string;
  since?: string;
  historyDir?: string;
}

export async function runReport(ctx: Context, flags: ReportFlags): Promise<number> {
  if (flags.file.trim() === '') throw new UsageError('--file: expected a file name, or - for stdout');
  const windowMs = flags.since === undefined ? undefined : parseWindow(flags.since);
  const dir = flags.historyDir === undefined ? defaultHistoryDir(ctx.env) : resolve(ctx.cwd, flags.historyDir);
  const history = new History(dir, serviceKey(ctx.globals.sandbox, await ctx.config({ token: false })));
  const published = readPublished(ctx.env, history.service).adverts;
  // Days left, and the page's time, count from the sandbox's clock with --sandbox (see sync/today.ts):
  // its snapshots are dated by it, so "generated" is not a month before the period's end.
  const today = await todayFor({ sandbox: ctx.globals.sandbox, env: ctx.env, warn: (text) => ctx.io.stderr.write(`${ctx.name}: warning: ${text}\n`) });
  const build = async () => {
    const now = await clockNow({ sandbox: ctx.globals.sandbox, env: ctx.env });
    return buildReportStoppable(history, windowMs === undefined ? { now, published, today } : { now, from: now - windowMs, published, today }, ctx.signal);
  };
  let model = await build();
  // Adverts published but never read (a first report after publish): their statistics are read
  // once and recorded, as stats would, so the page has every advert the tool knows.
  const inHistory = new Set(model.adverts.map((a) => a.reference));
  let unread = liveReferences(published).filter((r) => !inHistory.has(r));
  if (unread.length > 0 && windowMs !== undefined) {
    // Recorded before the window: read already, just not lately (the report covers the window only).
    const before = history.latest(new Set(unread));
    unread = unread.filter((r) => !before.has(r));
  }
  let unreadFailure: string | undefined;
  if (unread.length > 0) {
    unreadFailure = await recordUnread(ctx, history, unread);
    model = await build();
  }
  if (model.adverts.length === 0) {
    throw new UsageError(`no snapshots of ${history.service} in ${displayPath(dir, ctx.cwd, ctx.env)}${windowMs === undefined ? '' : ' in that window'}`, {
      details: [
        ...(unreadFailure ? [unreadFailure] : []),
        `${ctx.name} report shows the adverts ${ctx.name} publishes (publish, create, sync) and the snapshots each ${ctx.name} stats run records: publish adverts, or run ${ctx.name} stats --all (or ${ctx.name} stats <reference...>), then ${ctx.name} report.`,
      ],
    });
  }
  if (unreadFailure) ctx.io.stderr.write(`${ctx.name}: warning: ${unreadFailure}\n`);
  const html = renderReportHtml(model);
  // Drawing the page takes a while for a large history: a Ctrl-C meanwhile still writes nothing.
  await nextTurn();
  if (ctx.signal.aborted) throw new CancelledError('interrupted while drawing the report: no report was written');
  const toStdout = flags.file === '-';
  const path = toStdout ? undefined : resolve(ctx.cwd, flags.file);
  if (path) {
    const folder = resolve(path, '..');
    // The tool's own folder: never a link planted in its place, and ignored by git.
    if (basename(folder) === TOOL_FOLDER) {
      try {
        prepareToolFolder(folder);
      } catch (error) {
        throw cannotWrite(displayPath(folder, ctx.cwd, ctx.env), folder, error, { what: 'the folder of the report', after: '; no report was written' });
      }
    }
    // A temp file renamed into place: a full disk leaves the old page whole, never half a new one.
    try {
      replaceFile(path, html, { durable: true, mode: 0o644 });
    } catch (error) {
      throw cannotWrite(displayPath(path, ctx.cwd, ctx.env), path, error, {
        what: 'the report',
        after: '; no report was written (an older one there is unchanged)',
      });
    }
  } else ctx.io.stdout.write(html);
  if (isJson(ctx) && !toStdout) {
    ctx.io.stdout.write(jsonText(reportJson(model, path)));
  } else if (!ctx.globals.quiet) {
    // Counted as the page counts them: the live adverts, the deleted ones apart.
    const live = model.adverts.filter((a) => !a.deleted).length;
    const deleted = model.adverts.length - live;
    const waiting = model.adverts.filter((a) => a.attention.length > 0).length;
    if (unread.length > 0 && !unreadFailure)
      ctx.io.stderr.write(`read the statistics of ${unread.length} published advert${unread.length === 1 ? '' : 's'} not in the history yet\n`);
    const days = model.totals.length;
    ctx.io.stderr.write(
      `wrote ${path ? displayPath(path, ctx.cwd, ctx.env) : 'the report to stdout'}: ${live} advert${live === 1 ? '' : 's'}${deleted > 0 ? ` (and ${deleted} deleted)` : ''} over ${days} day${days === 1 ? '' : 's'}, ${waiting} need${waiting === 1 ? 's' : ''} attention\n`,
    );
  }
  return 0;
}

/** Reads and records the statistics of adverts the history lacks; returns why some could not be read. */
async function recordUnread(ctx: Context, history: History, references: string[]): Promise<string | undefined> {
  let results;
  try {
    results = await readStats(ctx, references);
  } catch (error) {
    if (!(error instanceof JobsError)) throw error;
    return `the statistics of ${references.length} published advert(s) could not be read: ${sanitize(error.message)}`;
  }
  const read = results.flatMap((r) => ('stats' in r && r.stats ? [{ reference: r.reference, stats: r.stats, at: r.at }] : []));
  try {
    recordAndCompare(history, read);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return `the statistics of ${references.length} published advert(s) were read but could not be recorded in ${history.folder} (${sanitize(reason)}); pass --history-dir <dir>`;
  }
  const failed = results.filter((r) => 'error' in r && r.error);
  if (failed.length === 0) return undefined;
  const first = failed[0] as { reference: string; error: Error };
  return `the statistics of ${failed.length} published advert(s) could not be read (${sanitize(first.reference)}: ${sanitize(first.error.message)})`;
}
