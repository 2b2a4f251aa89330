import type { CommandSetup } from '../../program.js';

export default function config({ program, name, action }: CommandSetup): void {
  const command = program
    .command('config')
    .helpGroup('Service and settings:')
    .description('show and change settings: get, set, unset, list, path')
    .addHelpText(
      'after',
      `
Keys are dotted, like the config file: profile, profiles.<name>.base_url, profiles.<name>.auth_scheme,
profiles.<name>.ca_file, concurrency, timeout, retries, allow_insecure_http, defaults.<advert field>,
constants.<family>.<name>.
Precedence: flags > environment (JOBS_BASE_URL, JOBS_TOKEN, JOBS_PROFILE, JOBS_CONFIG) > project config
(.jobsrc.yaml and friends, nearest from here up to your home) > user config
($XDG_CONFIG_HOME/jobs/config.yaml) > defaults. \${VAR} in a value reads the environment (in a
project config, only variables allowed by name; the token's only in profiles.<name>.token: see
docs/configuration.md).

Examples:
  $ ${name} config list
  $ ${name} config set profiles.prod.base_url https://jobs.example.com
  $ ${name} config get concurrency`,
    );

  command
    .command('get')
    .description('print the effective value of a key (exit 1 when it is not set)')
    .argument('<key>', 'dotted key, e.g. profiles.prod.base_url, or base_url / token for the selected profile')
    .addHelpText(
      'after',
      `
profile, base_url, token, auth_scheme, concurrency, timeout and retries print the value in effect
(flags and environment included); other keys print what the config files say. A token is never
printed: only whether it is set and where it comes from.

Examples:
  $ ${name} config get base_url
  $ ${name} config get constants.contract --json`,
    )
    .action(
      action(async (ctx, key: string) => {
        const { runConfigGet } = await import('./run.js');
        return runConfigGet(ctx, key);
      }),
    );

  command
    .command('set')
    .description('write a key into the user config (or the project config with --project)')
    .argument('<key>', 'dotted key, e.g. concurrency or profiles.prod.base_url')
    .argument('<value>', 'the value; numbers and true/false are typed by the config schema')
    .option('--project', 'edit the project config (the nearest .jobsrc.yaml, or a new one here) instead')
    .addHelpText(
      'after',
      `
Edits $XDG_CONFIG_HOME/jobs/config.yaml (created with mode 0600), or the file named by --config /
JOBS_CONFIG; comments and layout are kept. Tokens are not written: use '${name} login', or a reference
to an environment variable in single quotes.

Examples:
  $ ${name} config set profiles.prod.base_url https://jobs.example.com
  $ ${name} config set --project constants.contract.permanent 1
  $ ${name} config set profiles.prod.token '\${PROD_JOBS_TOKEN}'`,
    )
    .action(
      action(async (ctx, key: string, value: string, opts: { project?: boolean }) => {
        const { runConfigSet } = await import('./run.js');
        return runConfigSet(ctx, key, value, { project: Boolean(opts.project) });
      }),
    );

  command
    .command('unset')
    .description('remove a key from the user config (or the project config with --project)')
    .argument('<key>', 'dotted key')
    .option('--project', 'edit the project config instead')
    .addHelpText(
      'after',
      `
Examples:
  $ ${name} config unset concurrency
  $ ${name} config unset --project profiles.staging`,
    )
    .action(
      action(async (ctx, key: string, opts: { project?: boolean }) => {
        const { runConfigUnset } = await import('./run.js');
        return runConfigUnset(ctx, key, { project: Boolean(opts.project) });
      }),
    );

  command
    .command('list')
    .description('show every effective setting and where it comes from (tokens masked)')
    .addHelpText(
      'after',
      `
With --json: {"settings": [{"key", "value", "source", "from"}], "file_settings": [...], "files", "warnings"};
the token entry has "set" instead of a value.

Examples:
  $ ${name} config list
  $ ${name} --profile prod config list --json`,
    )
    .action(
      action(async (ctx) => {
        const { runConfigList } = await import('./run.js');
        return runConfigList(ctx);
      }),
    );

  command
    .command('path')
    .description('show which config files and credentials store are in use')
    .addHelpText(
      'after',
      `
Examples:
  $ ${name} config path
  $ ${name} config path --json`,
    )
    .action(
      action(async (ctx) => {
        const { runConfigPath } = await import('./run.js');
        return runConfigPath(ctx);
      }),
    );
}
