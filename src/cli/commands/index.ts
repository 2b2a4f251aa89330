// Written by scripts/generate-commands.mjs from the folders of src/cli/commands/ (npm run build): do not edit.
/**
 * Every command: a folder with a `command.ts` that defines its arguments, options, help and help
 * heading (commander's `.helpGroup()`, one of COMMAND_HEADINGS); `run.ts` does the work, with its
 * dependencies imported statically; `report.ts` (where it has one) writes its human and JSON output.
 *
 * The one lazy step: `command.ts` loads `./run.js` when the command runs. `--help`, completion and
 * every run register all or one of these definitions, and a run's modules (the validator, the
 * HTTP client, node:crypto, worker_threads) would otherwise load at every start:
 * test/e2e/startup-modules.test.ts holds `jobs validate` and `jobs --help` to that.
 */
import type { CommandSetup } from '../program.js';
import completionCommand from './completion/command.js';
import configCommand from './config/command.js';
import convertCommand from './convert/command.js';
import createCommand from './create/command.js';
import deleteCommand from './delete/command.js';
import doctorCommand from './doctor/command.js';
import eventCommand from './event/command.js';
import eventsCommand from './events/command.js';
import exportCommand from './export/command.js';
import initCommand from './init/command.js';
import loginCommand from './login/command.js';
import logoutCommand from './logout/command.js';
import previewCommand from './preview/command.js';
import publishCommand from './publish/command.js';
import reportCommand from './report/command.js';
import rulesCommand from './rules/command.js';
import sandboxCommand from './sandbox/command.js';
import schemaCommand from './schema/command.js';
import shellInitCommand from './shell-init/command.js';
import statsCommand from './stats/command.js';
import syncCommand from './sync/command.js';
import updateCommand from './update/command.js';
import validateCommand from './validate/command.js';
import versionCommand from './version/command.js';

/** Each command's name, as typed, and the function that registers it; by name (the help's order is program.ts's). */
export const COMMANDS: ReadonlyArray<readonly [string, (setup: CommandSetup) => void]> = [
  ['completion', completionCommand],
  ['config', configCommand],
  ['convert', convertCommand],
  ['create', createCommand],
  ['delete', deleteCommand],
  ['doctor', doctorCommand],
  ['event', eventCommand],
  ['events', eventsCommand],
  ['export', exportCommand],
  ['init', initCommand],
  ['login', loginCommand],
  ['logout', logoutCommand],
  ['preview', previewCommand],
  ['publish', publishCommand],
  ['report', reportCommand],
  ['rules', rulesCommand],
  ['sandbox', sandboxCommand],
  ['schema', schemaCommand],
  ['shell-init', shellInitCommand],
  ['stats', statsCommand],
  ['sync', syncCommand],
  ['update', updateCommand],
  ['validate', validateCommand],
  ['version', versionCommand],
];
