import { Option } from 'commander';
import type { CommandSetup } from '../../program.js';
import type { EventsFlags } from './run.js';
import { parseCount } from '../parsers.js';

export default function events({ program, name, action }: CommandSetup): void {
  program
    .command('events')
    .helpGroup('Bulk runs:')
    .description('post many job application events (view, like, reject) from an NDJSON, CSV or YAML file, journaling each outcome')
    .argument('<file>', 'events file: .ndjson/.jsonl, .csv or .yaml/.yml; - for stdin (with --format and --journal)')
    .addOption(new Option('--format <format>', 'the file format, when its name does not tell').choices(['ndjson', 'csv', 'yaml']))
    .option('--journal <file>', 'where to record outcomes (default: <file>.journal beside the events file)')
    .option('--retry-uncertain', 'post again the events an earlier run could not confirm (timeout, 500)')
    .option('--dry-run', 'validate, and show what would be posted and what the journal skips; send nothing')
    .option('--concurrency <n>', 'events posted at once (default: config concurrency, 4)', parseCount(1, 64))
    .option('--unlock', 'remove a lock left by an events run that is no longer running')
    .addHelpText(
      'after',
      `
Each entry is {application_id, kind, data?}: an NDJSON object per line, a CSV row under the header
application_id,kind,data (data a JSON object, optional), or a YAML list of mappings. The whole file
is validated first; if any entry is invalid nothing is sent (exit 3).

Journal: every accepted event is recorded in the journal, so running the same command again posts
only what is left. An event whose outcome is unknown (timeout, 500) is recorded as uncertain and
not posted again, because a repeat would notify the applicant twice, unless you pass --retry-uncertain.
A lock beside the journal stops two runs on it at once; --unlock clears one left behind.

Examples:
  $ ${name} events triage.csv
  $ ${name} events events.ndjson --concurrency 8 --json
  $ export-events | ${name} events - --format ndjson --journal today.journal`,
    )
    .action(
      action(async (ctx, file: string, flags: EventsFlags) => {
        const { runEvents } = await import('./run.js');
        return runEvents(ctx, file, flags);
      }),
    );
}
