// Writes src/cli/commands/index.ts, the list of commands, from the folders of src/cli/commands/:
// a folder with a command.ts is a command named as the folder. scripts/build.mjs runs it, so a new
// command is its folder and nothing else to edit; test/cli/commands/index.test.ts fails when the
// file is stale.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = join(root, 'src/cli/commands');
export const COMMANDS_FILE = join(folder, 'index.ts');

/** The folders that hold a command.ts, by name. */
export function commandFolders() {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(folder, entry.name, 'command.ts')))
    .map((entry) => entry.name)
    .sort();
}

/** The text of src/cli/commands/index.ts for the folders there are. */
export function commandsSource(names = commandFolders()) {
  const id = (name) => `${name.replace(/-(\w)/g, (_m, c) => c.toUpperCase())}Command`;
  return [
    '// Written by scripts/generate-commands.mjs from the folders of src/cli/commands/ (npm run build): do not edit.',
    '/**',
    ' * Every command: a folder with a `command.ts` that defines its arguments, options, help and help',
    " * heading (commander's `.helpGroup()`, one of COMMAND_HEADINGS); `run.ts` does the work, with its",
    ' * dependencies imported statically; `report.ts` (where it has one) writes its human and JSON output.',
    ' *',
    ' * The one lazy step: `command.ts` loads `./run.js` when the command runs. `--help`, completion and',
    " * every run register all or one of these definitions, and a run's modules (the validator, the",
    ' * HTTP client, node:crypto, worker_threads) would otherwise load at every start:',
    ' * test/e2e/startup-modules.test.ts holds `jobs validate` and `jobs --help` to that.',
    ' */',
    "import type { CommandSetup } from '../program.js';",
    ...names.map((name) => `import ${id(name)} from './${name}/command.js';`),
    '',
    "/** Each command's name, as typed, and the function that registers it; by name (the help's order is program.ts's). */",
    'export const COMMANDS: ReadonlyArray<readonly [string, (setup: CommandSetup) => void]> = [',
    ...names.map((name) => `  ['${name}', ${id(name)}],`),
    '];',
    '',
  ].join('\n');
}

/** Rewrites the file when it differs; says so. */
export function writeCommands() {
  const text = commandsSource();
  if (existsSync(COMMANDS_FILE) && readFileSync(COMMANDS_FILE, 'utf8') === text) return false;
  writeFileSync(COMMANDS_FILE, text);
  console.log('src/cli/commands/index.ts: written from the command folders');
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) writeCommands();
