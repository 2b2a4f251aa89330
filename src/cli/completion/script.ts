/** `jobs completion <shell>`: the script for one shell, generated from the program's definitions. */
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionModel } from './model.js';
import { zshScript } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The names the package installs: a script completes both, whichever printed it. */
export const INSTALLED_NAMES = ['jobs', 'jobs-cli'] as const;

export interface ScriptOptions {
  /** The commands the script completes. */
  commands: readonly string[];
  /**
   * The shell words that run the CLI, for profile names (already quoted for the shell; for fish, a
   * list); by default the command being completed, found on PATH.
   */
  invoke?: string;
}

/**
 * The generated functions' prefix. Not derived from `jobs`: zsh ships its own `_jobs` (the job
 * specs `kill` and `fg` complete), which a `_jobs` of ours would replace.
 */
export const FUNCTION_PREFIX = '_jobs_cli';

export function completionScript(program: Command, shell: Shell, version: string, options?: ScriptOptions): string {
  const model = completionModel(program);
  const opts = options ?? { commands: [...new Set([model.name, ...INSTALLED_NAMES])] };
  switch (shell) {
    case 'bash':
      return bashScript(model, version, opts);
    case 'zsh':
      return zshScript(model, version, opts);
    case 'fish':
      return fishScript(model, version, opts);
  }
}
