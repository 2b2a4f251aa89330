import { Argument } from 'commander';
import type { CommandSetup } from '../../program.js';
import type { Shell } from '../../completion/script.js';
import { VERSION } from '../../../core/version.js';

export default function completion({ program, name, action }: CommandSetup): void {
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
and credentials, output formats) and file arguments, for both names the package installs (jobs and
jobs-cli). It is generated from the CLI's own definitions: regenerate it after an upgrade.
'${name} shell-init <shell>' prints it too, with a 'jobs' function beside the shell's builtin.

Install:
  bash  ${name} completion bash > ~/.local/share/bash-completion/completions/${name}
  zsh   ${name} completion zsh > ~/.zfunc/_jobs_cli    (with fpath=(~/.zfunc $fpath) before compinit)
  fish  ${name} completion fish > ~/.config/fish/completions/${name}.fish

Examples:
  $ ${name} completion bash > ~/.local/share/bash-completion/completions/${name}
  $ source <(${name} completion zsh)
  $ ${name} completion fish > ~/.config/fish/completions/${name}.fish`,
    )
    .action(
      action(async (ctx, shell: Shell) => {
        // `program` is complete by now: every command registered itself before parsing started.
        const { completionScript } = await import('../../completion/script.js');
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
        const { profileNames } = await import('../../completion/profiles.js');
        for (const name of await profileNames(ctx)) ctx.io.stdout.write(`${name}\n`);
        return 0;
      }),
    );
}
