import { Argument } from 'commander';
import type { CommandSetup } from '../../program.js';
import type { Shell } from '../../completion/script.js';

export default function completion({ program, name, action }: CommandSetup): void {
  const command = program
    .command('completion')
    .helpGroup('Local tools:')
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
      // `program` is complete by now: every command registered itself before parsing started.
      action(async (ctx, shell: Shell) => (await import('./run.js')).runCompletion(ctx, program, shell)),
    );

  // Called by the scripts on <Tab> after --profile: one profile name per line.
  command
    .command('__profiles', { hidden: true })
    .description('print the profile names, one per line (for the completion scripts)')
    .action(action(async (ctx) => (await import('./run.js')).runProfiles(ctx)));
}
