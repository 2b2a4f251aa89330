/**
 * The list of commands is the command folders: src/cli/commands/index.ts is written from them by
 * the build (scripts/generate-commands.mjs), so a new command is its folder. Stale, this fails.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script, plain JavaScript without declarations
import { COMMANDS_FILE, commandFolders, commandsSource } from '../../../scripts/generate-commands.mjs';
import { COMMANDS } from '../../../src/cli/commands/index.js';

describe('COMMANDS', () => {
  it('is every folder of src/cli/commands/ with a command.ts, as the build writes it', () => {
    expect(COMMANDS.map(([name]) => name)).toEqual(commandFolders());
    expect(readFileSync(COMMANDS_FILE, 'utf8'), 'src/cli/commands/index.ts is stale: npm run build writes it').toBe(commandsSource());
  });

  it('writes a folder it is given as a command: its name as typed, its command.ts imported', () => {
    const text: string = commandsSource(['rules', 'shell-init']);
    expect(text).toContain("import rulesCommand from './rules/command.js';\nimport shellInitCommand from './shell-init/command.js';\n");
    expect(text).toContain("  ['rules', rulesCommand],\n  ['shell-init', shellInitCommand],\n];\n");
  });
});
