import { Argument } from 'commander';
import type { CommandSetup } from '../program.js';
import type { Shell } from '../completion/script.js';
import { VERSION } from '../version.js';

export default function completion({ program, action }: CommandSetup): void {
  const command = program
    .command('completion')
    .description('print a shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(['bash', 'zsh', 'fish']))
    // The hidden helper below is a subcommand; keep it out of the usage line.
    .usage('[options] <shell>')
    .addHelpText(
      'after',
      `
The script completes commands, options, option values (file paths, profile names from your config
and credentials, output formats) and file arguments. It is generated from jobs' own definitions:
regenerate it after an upgrade.

Install:
  bash  jobs completion bash > ~/.local/share/bash-completion/completions/jobs
  zsh   jobs completion zsh > ~/.zfunc/_jobs    (with fpath=(~/.zfunc $fpath) before compinit)
  fish  jobs completion fish > ~/.config/fish/completions/jobs.fish

Examples:
  $ jobs completion bash > ~/.local/share/bash-completion/completions/jobs
  $ source <(jobs completion zsh)
  $ jobs completion fish > ~/.config/fish/completions/jobs.fish`,
    )
    .action(
      action(async (ctx, shell: Shell) => {
        // `program` is complete by now: every command registered itself before parsing started.
        const { completionScript } = await import('../completion/script.js');
        ctx.io.stdout.write(completionScript(program, shell, VERSION));
        return 0;
      }),
    );

  // Called by the scripts on <Tab> after --profile: one profile name per line.
  command
    .command('__profiles', { hidden: true })
    .description('print the profile names, one per line (for the completion scripts)')
    .action(
      action(async (ctx) => {
        const { profileNames } = await import('../completion/profiles.js');
        for (const name of await profileNames(ctx)) ctx.io.stdout.write(`${name}\n`);
        return 0;
      }),
    );
}
