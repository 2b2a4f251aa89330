/**
 * Every command, registered in help order. Each command is a folder: `command.ts` defines its
 * arguments, options and help; `run.ts` does the work, with its dependencies imported statically;
 * `report.ts` (where it has one) writes its human and JSON output.
 *
 * The one lazy step: `command.ts` loads `./run.js` when the command runs. `--help`, completion and
 * every run register all or one of these definitions, and a run's modules (the validator, the
 * HTTP client, node:crypto, worker_threads) would otherwise load at every start:
 * test/e2e/startup-modules.test.ts holds `jobs validate` and `jobs --help` to that.
 */
import type { CommandSetup } from '../program.js';
import validate from './validate/command.js';
import publish from './publish/command.js';
import create from './create/command.js';
import update from './update/command.js';
import del from './delete/command.js';
import stats from './stats/command.js';
import report from './report/command.js';
import event from './event/command.js';
import events from './events/command.js';
import sandbox from './sandbox/command.js';
import config from './config/command.js';
import login from './login/command.js';
import logout from './logout/command.js';
import doctor from './doctor/command.js';
import sync from './sync/command.js';
import init from './init/command.js';
import convert from './convert/command.js';
import schema from './schema/command.js';
import completion from './completion/command.js';
import shellInit from './shell-init/command.js';
import version from './version/command.js';
import rules from './rules/command.js';

/** Each command's name, as typed, and the function that registers it; in help order. */
export const COMMANDS: ReadonlyArray<readonly [string, (setup: CommandSetup) => void]> = [
  ['validate', validate],
  ['publish', publish],
  ['create', create],
  ['update', update],
  ['delete', del],
  ['stats', stats],
  ['report', report],
  ['event', event],
  ['events', events],
  ['sync', sync],
  ['sandbox', sandbox],
  ['init', init],
  ['convert', convert],
  ['rules', rules],
  ['schema', schema],
  ['config', config],
  ['login', login],
  ['logout', logout],
  ['doctor', doctor],
  ['completion', completion],
  ['shell-init', shellInit],
  ['version', version],
];
