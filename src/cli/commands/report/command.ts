import type { CommandSetup } from '../../program.js';
import type { ReportFlags } from './run.js';

/**
 * In a folder of the tool's own that git leaves alone (it holds a .gitignore of `*`): a report
 * written in a clone must not turn up in `git status`, nor be committed by a `git add .`.
 */
export const DEFAULT_REPORT_FILE = '.jobs/report.html';

export default function report({ program, action, name }: CommandSetup): void {
  program
    .command('report')
    .helpGroup('Statistics and applications:')
    .description('write an HTML page of statistics over time, from the history that stats records')
    .option('--file <path>', 'the page to write; - for stdout', DEFAULT_REPORT_FILE)
    .option('--since <duration>', 'only snapshots from this window (30d, 12h); default: the whole history')
    .option('--history-dir <dir>', 'where snapshots are kept (default: $XDG_STATE_HOME/jobs/history)')
    .addHelpText(
      'after',
      `
By default the page is .jobs/report.html, in a folder that ignores itself in git and Prettier. It is one self-contained file (no network: CSS, script and SVG charts are inlined): totals per
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
    .action(action(async (ctx, flags: ReportFlags) => (await import('./run.js')).runReport(ctx, flags)));
}
