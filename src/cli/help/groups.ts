/**
 * The headings `jobs --help` lists the commands under, in order; each command is registered under
 * its group, so the help, the README's table and the man pages list them in this order. A command
 * missing here is listed under "Commands:" (a test fails then).
 */
export const COMMAND_GROUPS: ReadonlyArray<readonly [heading: string, commands: readonly string[]]> = [
  ['Adverts:', ['validate', 'publish', 'create', 'update', 'delete']],
  ['Statistics and applications:', ['stats', 'report', 'event']],
  ['Bulk runs:', ['sync', 'events']],
  ['Service and settings:', ['login', 'logout', 'doctor', 'config']],
  ['Local tools:', ['sandbox', 'init', 'convert', 'rules', 'schema', 'completion', 'shell-init', 'version']],
];

/** Help topics (`jobs help <topic>`), with a line each; their text is loaded only when asked for. */
export const HELP_TOPICS: ReadonlyArray<readonly [name: string, summary: string]> = [
  ['exit-codes', 'what each exit code means'],
  ['environment', 'the environment variables jobs reads'],
  ['formats', 'output formats (--output) and the files jobs reads'],
  ['config', 'config files, their precedence and every key'],
];
