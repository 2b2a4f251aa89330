import type { CommandSetup } from '../../program.js';

export default function logout({ program, name, action }: CommandSetup): void {
  program
    .command('logout')
    .helpGroup('Service and settings:')
    .description('remove the stored token of the selected profile (succeeds when there is none)')
    .addHelpText(
      'after',
      `
The token is removed from wherever '${name} login' put it: the OS keyring and the credentials file.
JOBS_TOKEN, token files and tokens in config files are left as they are. Exits 1 when the keyring
holds the token but does not answer. With --json: {"profile", "removed", "from", "path"}.

Examples:
  $ ${name} logout
  $ ${name} --profile prod logout`,
    )
    .action(action(async (ctx) => (await import('./run.js')).runLogout(ctx)));
}
