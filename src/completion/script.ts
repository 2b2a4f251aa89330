/** `jobs completion <shell>`: the script for one shell, generated from the program's definitions. */
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import { completionModel } from './model.js';
import { zshScript } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(program: Command, shell: Shell, version: string): string {
  const model = completionModel(program);
  switch (shell) {
    case 'bash':
      return bashScript(model, version);
    case 'zsh':
      return zshScript(model, version);
    case 'fish':
      return fishScript(model, version);
  }
}
