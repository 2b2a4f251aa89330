import type { CommandSetup } from '../../program.js';
import { parseCount } from '../parsers.js';
import type { SyncFlags } from './run.js';

export default function sync({ program, name, action }: CommandSetup): void {
  program
    .command('sync')
    .helpGroup('Bulk runs:')
    .description('make the service match a folder of adverts: create, update and (with --prune) delete')
    .argument('<dir>', 'the folder of advert files (searched recursively)')
    .option('--dry-run', 'print the plan and send nothing')
    .option('--prune', 'delete adverts that were published from this folder and are gone from it')
    .option(
      '-y, --yes',
      'delete (--prune, or adverts past their jobs.closes date), and replace adverts last published from another file, without asking; required when not on a terminal',
    )
    .option('--state <file>', 'the state file (default: <dir>/.jobs-state, or <dir>/.jobs-state.json where only that is there)')
    .option('--force', 'republish every advert, changed or not')
    .option('--concurrency <n>', 'requests at once (default: config concurrency, 4)', parseCount(1, 64))
    .option('--detailed-exitcode', 'with --dry-run: exit 8 when there are changes, 0 when none')
    .option('--fail-fast', 'stop starting new requests after the first failure')
    .option('--unlock', 'remove a lock left by a sync that is no longer running')
    .option('--allow-unknown-fields', 'send fields the schema does not know instead of refusing them')
    .addHelpText(
      'after',
      `
The service cannot list adverts, so sync keeps a state file of what it published (per service URL),
as Terraform does. Every advert is validated first (exit 3, nothing sent); so is every file and
folder that cannot be read (symlinks are followed), so --prune never deletes an advert it could not
read. Plan: + create (not in
state), ~ update (content changed; the whole advert is sent), unchanged (no request), - delete
(gone from the folder; only with --prune, otherwise listed as orphans). An advert's jobs: block
dates it (UTC): it is created from jobs.opens on (+ REF (opens DATE) until then, nothing sent) and
deleted after jobs.closes (- REF (closed DATE), no --prune needed). A plan that deletes asks
first on a terminal (no: exit 9, nothing sent); in scripts and CI it needs --yes, or nothing is sent
(exit 2). So does an advert whose reference was last published (by this user, to this service)
from another file with another title: it would replace that advert. A field removed from a file
cannot be cleared through the interface; the plan says so. Each success is recorded at once, so an
interrupted sync resumes where it stopped; a lost state is safe (taken references are adopted).

Examples:
  $ ${name} sync adverts/ --dry-run
  $ ${name} sync adverts/ --prune
  $ ${name} sync adverts/ --prune --yes                   # in CI: delete without asking
  $ ${name} sync adverts/ --dry-run --detailed-exitcode   # exit 8 when changes are pending`,
    )
    .action(action(async (ctx, dir: string, flags: SyncFlags) => (await import('./run.js')).runSync(ctx, dir, flags)));
}
