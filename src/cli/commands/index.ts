/** Every command, registered in help order. Each file defines its options and loads its layers lazily. */
import type { CommandSetup } from '../program.js';
import validate from './validate.js';
import publish from './publish.js';
import create from './create.js';
import update from './update.js';
import del from './delete.js';
import stats from './stats.js';
import report from './report.js';
import event from './event.js';
import events from './events.js';
import sandbox from './sandbox.js';
import config from './config.js';
import login from './login.js';
import logout from './logout.js';
import doctor from './doctor.js';
import sync from './sync.js';
import init from './init.js';
import convert from './convert/command.js';
import schema from './schema.js';
import completion from './completion.js';
import shellInit from './shell-init.js';
import version from './version.js';

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
  ['schema', schema],
  ['config', config],
  ['login', login],
  ['logout', logout],
  ['doctor', doctor],
  ['completion', completion],
  ['shell-init', shellInit],
  ['version', version],
];
