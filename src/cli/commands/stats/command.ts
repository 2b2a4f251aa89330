import type { CommandSetup } from '../../program.js';
import type { StatsFlags } from './run.js';

export default function stats({ program, name, action }: CommandSetup): void {
  program
    .command('stats')
    .helpGroup('Statistics and applications:')
    .description('show views, likes, applications and unviewed applications of adverts')
    .argument('[reference...]', 'references of published adverts')
    .option('--all', 'every advert this tool published to the service (publish, create, sync), and those of ./.jobs-state (or ./.jobs-state.json)')
    .option('--state <file>', 'with --all: only the adverts of this sync state (<dir>/.jobs-state); with references: where to find groups of places')
    .option('--since <duration>', 'show the change over this window (7d, 12h) instead of since the last snapshot')
    .option('--sort <column>', `sort by ${SORT_COLUMNS}`)
    .option('--needs-attention', 'only adverts with unviewed applications, or views but no new applications for a week')
    .option('--history', 'draw a chart of each counter over time (from the recorded snapshots)')
    .option('--history-dir <dir>', 'where snapshots are kept (default: $XDG_STATE_HOME/jobs/history)')
    .option('--no-record', 'compare with the history but do not add this run to it')
    .addHelpText(
      'after',
      `
The table adds the like rate (likes / views), the application rate (applications / views) and, from
the local history, the change since the last snapshot (or over --since). Each run records one
snapshot per advert in the history (one folder per service), which jobs report turns into a page.
The reference of an advert written for several places (locations:) gives each place's row and the
group's total; the group is found in the sync state (./.jobs-state or ./.jobs-state.json, or --state <file>).
With --json: {"stats": [{"reference", "views", "likes", "applications", "applications_unviewed",
"like_rate", "application_rate", "change", "needs_attention"}], "groups"?: [{"reference", "places",
"views", ...}], "history"?: [...]} (see '${name} help formats').

Examples:
  $ ${name} stats ACME-0042
  $ ${name} stats ACME-0042 --history
  $ ${name} stats ACME-0042 --state adverts/.jobs-state   # a group: each place and the total
  $ ${name} stats ACME-0042 ACME-0043 --json
  $ ${name} stats --all --since 7d --sort new_applications
  $ ${name} stats --all --needs-attention --state adverts/.jobs-state
  $ ${name} --sandbox stats ACME-0042   # also lists application ids to try ${name} event with`,
    )
    .action(action(async (ctx, references: string[], flags: StatsFlags) => (await import('./run.js')).runStats(ctx, references, flags)));
}

const SORT_COLUMNS = 'reference, views, likes, applications, unviewed, like_rate, apply_rate, new_views, new_likes or new_applications';
