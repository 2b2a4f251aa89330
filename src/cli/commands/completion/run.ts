/** completion: the script for a shell, and the profile names the scripts ask for on <Tab>. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { completionScript, type Shell } from '../../completion/script.js';
import { profileNames } from '../../completion/profiles.js';
import { VERSION } from '../../../core/version.js';

export function runCompletion(ctx: Context, program: Command, shell: Shell): number {
  ctx.io.stdout.write(completionScript(program, shell, VERSION));
  return 0;
}

export async function runProfiles(ctx: Context): Promise<number> {
  for (const name of await profileNames(ctx)) ctx.io.stdout.write(`${name}\n`);
  return 0;
}
