import type { CommandSetup } from '../../program.js';

export default function doctor({ program, name, action }: CommandSetup): void {
  program
    .command('doctor')
    .helpGroup('Service and settings:')
    .description('show the settings in use and check the service is reachable and accepts the credentials')
    .addHelpText(
      'after',
      `
The check asks for the statistics of a random reference that does not exist: a 404 proves the
service is reachable and the token accepted, and no advert is read or changed.
Exit codes: 0 all good, 2 configuration incomplete or invalid, 4 token rejected, 6 rate quota
exceeded, 7 service unreachable or failing.
With --json: {"ok", "exit_code", "settings", "files", "warnings", "checks": [{"name", "ok", "detail", "hints"}]}.

Examples:
  $ ${name} doctor
  $ ${name} --profile prod doctor
  $ JOBS_TOKEN=... ${name} doctor --json`,
    )
    .action(
      action(async (ctx) => {
        const { runDoctor } = await import('./run.js');
        return runDoctor(ctx);
      }),
    );
}
