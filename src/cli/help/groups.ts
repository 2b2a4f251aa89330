/**
 * The headings `jobs --help` lists the commands under, in order. Each command names its own in its
 * command.ts (commander's `.helpGroup()`); one that names none is listed under "Commands:", and
 * test/adopt/help-text.test.ts fails then.
 */
export const COMMAND_HEADINGS: readonly string[] = ['Adverts:', 'Statistics and applications:', 'Bulk runs:', 'Service and settings:', 'Local tools:'];

/**
 * The order under a heading where it is not by name: the commands used most first. A command not
 * listed here follows those that are, by name; the help, the README's table and the man pages list
 * them in this order.
 */
export const HELP_ORDER: readonly string[] = [
  'validate',
  'publish',
  'create',
  'update',
  'delete',
  'preview',
  'export',
  'stats',
  'report',
  'event',
  'sync',
  'events',
  'login',
  'logout',
  'doctor',
  'config',
  'sandbox',
  'init',
  'convert',
  'rules',
  'schema',
  'completion',
  'shell-init',
  'version',
];

/** `commands` in help order: by heading (unknown ones last), then HELP_ORDER, then name. */
export function inHelpOrder<C extends { name(): string; helpGroup(): string }>(commands: readonly C[]): C[] {
  const rank = (list: readonly string[], item: string) => (list.includes(item) ? list.indexOf(item) : list.length);
  return [...commands].sort(
    (a, b) =>
      rank(COMMAND_HEADINGS, a.helpGroup()) - rank(COMMAND_HEADINGS, b.helpGroup()) ||
      rank(HELP_ORDER, a.name()) - rank(HELP_ORDER, b.name()) ||
      a.name().localeCompare(b.name()),
  );
}

/** Help topics (`jobs help <topic>`), with a line each; their text is loaded only when asked for. */
export const HELP_TOPICS: ReadonlyArray<readonly [name: string, summary: string]> = [
  ['exit-codes', 'what each exit code means'],
  ['environment', 'the environment variables jobs reads'],
  ['formats', 'output formats (--output) and the files jobs reads'],
  ['config', 'config files, their precedence and every key'],
];
