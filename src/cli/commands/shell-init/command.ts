import { Argument } from 'commander';
import type { CommandSetup } from '../../program.js';
import type { Shell } from '../../completion/script.js';

export default function shellInit({ program, name, action }: CommandSetup): void {
  program
    .command('shell-init')
    .helpGroup('Local tools:')
    .description("print the lines for your shell's rc file: a jobs function beside the builtin, and completion")
    .addArgument(new Argument('<shell>', 'the shell: bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .addHelpText(
      'after',
      `
Every shell has a builtin 'jobs' (it lists the shell's background jobs), and a builtin wins over any
program. The printed lines define a 'jobs' function: 'jobs' alone, with the builtin's options
(such as -l, -p) or with job specs (%1, %+) is the builtin; anything else runs this CLI, by the path
of this installation, so it works without changing PATH. They also complete 'jobs' and 'jobs-cli'.
In scripts and CI, call '${name === 'jobs' ? 'jobs-cli' : name}' instead: rc files are not read there.

Set-up (then open a new shell):
  bash  echo 'eval "$(${name} shell-init bash)"' >> ~/.bashrc
  zsh   echo 'eval "$(${name} shell-init zsh)"' >> ~/.zshrc
  fish  echo '${name} shell-init fish | source' >> ~/.config/fish/config.fish

Examples:
  $ eval "$(${name} shell-init bash)"
  $ ${name} shell-init fish | source
  $ ${name} shell-init zsh > ~/.jobs.zsh`,
    )
    .action(action(async (ctx, shell: Shell) => (await import('./run.js')).runShellInit(ctx, program, shell)));
}
