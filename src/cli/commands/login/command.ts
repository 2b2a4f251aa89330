import type { CommandSetup } from '../../program.js';

export default function login({ program, name, action }: CommandSetup): void {
  program
    .command('login')
    .helpGroup('Service and settings:')
    .description('store a token for the selected profile (asked without echo, or read from stdin)')
    .option('--with-token', 'read the token from stdin instead of asking (for CI and scripts)')
    .option('--insecure-storage', 'keep the token in a file only you can read (mode 0600) instead of the OS keyring')
    .addHelpText(
      'after',
      `
The token is stored under the profile's name (--profile, JOBS_PROFILE, the config's profile, or
"default") in the OS keyring (macOS Keychain, Windows Credential Manager, the Secret Service on
Linux; service "jobs-cli"), and $XDG_CONFIG_HOME/jobs/credentials.json (default ~/.config/jobs/,
mode 0600) records that, with the base URL in use: the token is never sent to another URL. Where no
keyring answers (CI, a container, a server without a desktop session), or with --insecure-storage,
the token itself goes in that file. A token an older login left in the file moves to the keyring.
JOBS_TOKEN, --token-file and a profile's token take precedence over it. The token is never a flag:
it would show in ps and shell history.
With --json: {"profile", "storage" ("keyring" or "file"), "stored_in", "base_url"}.

Examples:
  $ ${name} --base-url https://jobs.example.com login
  $ echo "$JOBS_TOKEN" | ${name} login --with-token
  $ ${name} --profile prod login --with-token < token.txt`,
    )
    .action(
      action(async (ctx, opts: { withToken?: boolean; insecureStorage?: boolean }) => {
        const { runLogin } = await import('./run.js');
        return runLogin(ctx, { withToken: Boolean(opts.withToken), insecureStorage: Boolean(opts.insecureStorage) });
      }),
    );
}
