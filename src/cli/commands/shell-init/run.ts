/** shell-init: the rc-file lines for a shell: a `jobs` function beside the builtin, and completion. */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { completionScript, INSTALLED_NAMES, type Shell } from '../../completion/script.js';
import { invocation, shellInitScript } from '../../completion/shell-init.js';
import { packageRoot } from '../../../core/scaffold/package-files.js';
import { VERSION } from '../../../core/version.js';

/** `program` is complete: shell-init runs with every command registered (completion describes them). */
export function runShellInit(ctx: Context, program: Command, shell: Shell): number {
  // This installation: the Node running it and its bin/jobs.js, real paths (npm links resolved).
  const installation = { node: process.execPath, script: realpathSync(join(packageRoot(), 'bin', 'jobs.js')), version: VERSION };
  const completion = completionScript(program, shell, VERSION, { commands: INSTALLED_NAMES, invoke: invocation(shell, installation) });
  ctx.io.stdout.write(shellInitScript(shell, installation, completion));
  return 0;
}
