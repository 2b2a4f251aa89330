import type { CommandSetup } from '../program.js';

export default function logout({ program, name, action }: CommandSetup): void {
  program
    .command('logout')
    .description('remove the stored token of the selected profile (succeeds when there is none)')
    .addHelpText(
      'after',
      `
Only the credentials store written by '${name} login' is changed; JOBS_TOKEN, token files and tokens in
config files are left as they are. With --json: {"profile", "removed", "path"}.

Examples:
  $ ${name} logout
  $ ${name} --profile prod logout`,
    )
    .action(
      action(async (ctx) => {
        const { runLogout } = await import('./login-run.js');
        return runLogout(ctx);
      }),
    );
}
