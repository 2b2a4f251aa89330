import type { CommandSetup } from '../program.js';
import type { Context } from '../context.js';

export default function report({ program, action, name }: CommandSetup): void {
  program
    .command('report')
    .description('write an HTML page of statistics over time, from the history that stats records')
    .option('--file <path>', 'the page to write; - for stdout', 'jobs-report.html')
    .option('--since <duration>', 'only snapshots from this window (30d, 12h); default: the whole history')
    .option('--history-dir <dir>', 'where snapshots are kept (default: $XDG_STATE_HOME/jobs/history)')
    .addHelpText(
      'after',
      `
The page is one self-contained file (no network: CSS, script and SVG charts are inlined): totals per
day, the funnel views -> likes -> applications, what needs attention, and a sortable table with a
trend per advert. It reads only the local history (one snapshot per advert per jobs stats run); it
sends no request. With --json, stdout gets the same data as JSON (see README).

Examples:
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
  const [{ resolve }, { replaceFile }, { cannotWrite }, { History, defaultHistoryDir }, { serviceKey }, { parseWindow }, { buildReportStoppable }, { renderReportHtml }, { reportJson }, { UsageError, CancelledError }, { displayPath }, { nextTurn }] =
    await Promise.all([
      import('node:path'),
      import('../../core/storage/replace.js'),
      import('../../core/storage/errors.js'),
      import('../../core/history/store.js'),
      import('../../core/sync/service-key.js'),
      import('../../core/history/flags.js'),
      import('../../core/report/model.js'),
      import('../../core/report/html.js'),
      import('../../core/report/json.js'),
      import('../../core/errors/failures.js'),
      import('../../core/config/paths.js'),
      import('../../core/util/next-turn.js'),
    ]);
  if (flags.file.trim() === '') throw new UsageError('--file: expected a file name, or - for stdout');
  const windowMs = flags.since === undefined ? undefined : parseWindow(flags.since);
  const dir = flags.historyDir === undefined ? defaultHistoryDir(ctx.env) : resolve(ctx.cwd, flags.historyDir);
  const history = new History(dir, serviceKey(ctx.globals.sandbox, await ctx.config()));
  const now = Date.now();
  const model = await buildReportStoppable(history, windowMs === undefined ? { now } : { now, from: now - windowMs }, ctx.signal);
  if (model.adverts.length === 0) {
    throw new UsageError(`no snapshots of ${history.service} in ${displayPath(dir, ctx.cwd, ctx.env)}${windowMs === undefined ? '' : ' in that window'}`, {
      details: [`Each ${ctx.name} stats run records one per advert: run ${ctx.name} stats --all (or ${ctx.name} stats <reference...>) first, then ${ctx.name} report.`],
    });
  }
  const html = renderReportHtml(model);
  // Drawing the page takes a while for a large history: a Ctrl-C meanwhile still writes nothing.
  await nextTurn();
  if (ctx.signal.aborted) throw new CancelledError('interrupted while drawing the report: no report was written');
  const toStdout = flags.file === '-';
  const path = toStdout ? undefined : resolve(ctx.cwd, flags.file);
  if (path) {
    // A temp file renamed into place: a full disk leaves the old page whole, never half a new one.
    try {
      replaceFile(path, html, { durable: true, mode: 0o644 });
    } catch (error) {
      throw cannotWrite(displayPath(path, ctx.cwd, ctx.env), path, error, { what: 'the report', after: '; no report was written (an older one there is unchanged)' });
    }
  } else ctx.io.stdout.write(html);
  if (ctx.globals.output === 'json' && !toStdout) {
    ctx.io.stdout.write(`${JSON.stringify(reportJson(model, path))}\n`);
  } else if (!ctx.globals.quiet) {
    const waiting = model.adverts.filter((a) => a.attention.length > 0).length;
    const days = model.totals.length;
    ctx.io.stderr.write(`wrote ${path ? displayPath(path, ctx.cwd, ctx.env) : 'the report to stdout'}: ${model.adverts.length} advert${model.adverts.length === 1 ? '' : 's'} over ${days} day${days === 1 ? '' : 's'}, ${waiting} need${waiting === 1 ? 's' : ''} attention\n`);
  }
  return 0;
}
