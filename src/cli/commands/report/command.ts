import type { CommandSetup } from '../../program.js';
import type { Context } from '../../context.js';

/**
 * In a folder of the tool's own that git leaves alone (it holds a .gitignore of `*`): a report
 * written in a clone must not turn up in `git status`, nor be committed by a `git add .`.
 */
export const DEFAULT_REPORT_FILE = '.jobs/report.html';

export default function report({ program, action, name }: CommandSetup): void {
  program
    .command('report')
    .description('write an HTML page of statistics over time, from the history that stats records')
    .option('--file <path>', 'the page to write; - for stdout', DEFAULT_REPORT_FILE)
    .option('--since <duration>', 'only snapshots from this window (30d, 12h); default: the whole history')
    .option('--history-dir <dir>', 'where snapshots are kept (default: $XDG_STATE_HOME/jobs/history)')
    .addHelpText(
      'after',
      `
By default the page is .jobs/report.html, in a folder that ignores itself in git. It is one self-contained file (no network: CSS, script and SVG charts are inlined): totals per
day, the funnel views -> likes -> applications, what needs attention, and a sortable table with a
trend per advert, each advert named by its title. It reads the local history (one snapshot per
advert per jobs stats run) and the record of what this tool published; adverts published but never
read are read once first (one request each), so it works right after publish. With --json, stdout
gets the same data as JSON (see '${name} help formats').

Examples:
  $ ${name} report
  $ ${name} stats --all && ${name} report
  $ ${name} report --file weekly.html --since 7d
  $ ${name} sandbox --fast-forward 30d && ${name} --sandbox report`,
    )
    .action(action((ctx, flags: ReportFlags) => runReport(ctx, flags)));
}

interface ReportFlags {
  file: string;
  since?: string;
  historyDir?: string;
}

export async function runReport(ctx: Context, flags: ReportFlags): Promise<number> {
  const [{ resolve, basename }, { replaceFile }, { cannotWrite }, { prepareToolFolder, TOOL_FOLDER }, { History, defaultHistoryDir }, { serviceKey }, { parseWindow }, { buildReportStoppable }, { renderReportHtml }, { reportJson }, { UsageError, CancelledError }, { displayPath }, { nextTurn }] =
    await Promise.all([
      import('node:path'),
      import('../../../core/storage/replace.js'),
      import('../../../core/storage/errors.js'),
      import('../../../core/storage/tool-folder.js'),
      import('../../../core/history/store.js'),
      import('../../../core/sync/service-key.js'),
      import('../../../core/history/flags.js'),
      import('../../../core/report/model.js'),
      import('../../../core/report/html.js'),
      import('../../../core/report/json.js'),
      import('../../../core/errors/failures.js'),
      import('../../../core/config/paths.js'),
      import('../../../core/util/next-turn.js'),
    ]);
  if (flags.file.trim() === '') throw new UsageError('--file: expected a file name, or - for stdout');
  const windowMs = flags.since === undefined ? undefined : parseWindow(flags.since);
  const dir = flags.historyDir === undefined ? defaultHistoryDir(ctx.env) : resolve(ctx.cwd, flags.historyDir);
  const history = new History(dir, serviceKey(ctx.globals.sandbox, await ctx.config({ token: false })));
  const { readPublished, liveReferences } = await import('../../../core/published/record.js');
  const published = readPublished(ctx.env, history.service).adverts;
  const build = () => {
    const now = Date.now();
    return buildReportStoppable(history, windowMs === undefined ? { now, published } : { now, from: now - windowMs, published }, ctx.signal);
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
      throw cannotWrite(displayPath(path, ctx.cwd, ctx.env), path, error, { what: 'the report', after: '; no report was written (an older one there is unchanged)' });
    }
  } else ctx.io.stdout.write(html);
  if (ctx.globals.output === 'json' && !toStdout) {
    ctx.io.stdout.write((await import('../../output/json-output.js')).jsonText(reportJson(model, path)));
  } else if (!ctx.globals.quiet) {
    const waiting = model.adverts.filter((a) => a.attention.length > 0).length;
    if (unread.length > 0 && !unreadFailure) ctx.io.stderr.write(`read the statistics of ${unread.length} published advert${unread.length === 1 ? '' : 's'} not in the history yet\n`);
    const days = model.totals.length;
    ctx.io.stderr.write(`wrote ${path ? displayPath(path, ctx.cwd, ctx.env) : 'the report to stdout'}: ${model.adverts.length} advert${model.adverts.length === 1 ? '' : 's'} over ${days} day${days === 1 ? '' : 's'}, ${waiting} need${waiting === 1 ? 's' : ''} attention\n`);
  }
  return 0;
}

/** Reads and records the statistics of adverts the history lacks; returns why some could not be read. */
async function recordUnread(ctx: Context, history: import('../../../core/history/store.js').History, references: string[]): Promise<string | undefined> {
  const [{ readStats }, { recordAndCompare }, { JobsError }, { sanitize }] = await Promise.all([
    import('../stats/command.js'),
    import('../../../core/history/record.js'),
    import('../../../core/errors/failures.js'),
    import('../../../core/util/sanitize.js'),
  ]);
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
