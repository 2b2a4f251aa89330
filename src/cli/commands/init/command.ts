import type { CommandSetup } from '../../program.js';
import type { InitFlags } from './run.js';

export default function init({ program, name, action }: CommandSetup): void {
  program
    .command('init')
    .helpGroup('Local tools:')
    .description('write a commented advert to start from (or, with --config <file>, a commented project config)')
    .argument('[file]', 'the advert file to write (default: advert.yaml; a folder gets advert.yaml inside; - prints it)')
    .option('--force', 'overwrite the file if it exists')
    .option(
      '--markdown',
      'write a Markdown advert (default: advert.md): front matter for the fields, the body for the job description; a file named .md is one anyway',
    )
    .addHelpText(
      'after',
      `
The file's first line, # yaml-language-server: $schema=..., names the JSON Schema shipped with jobs,
so editors with YAML language support (VS Code's YAML extension, Neovim's yamlls) complete and check
fields as you type. In a project that installs jobs (npm install -D jobs-cli) the path is relative
to node_modules and can be committed; with a global install it is absolute. The advert is valid as
written: change its values, then validate it. Its reference is its own (from the file's name and a
random part: adverts/backend.yaml gets BACKEND-7K3M9Q), so two new adverts never replace each other
when published; keep it, or write your own system's.

With the global option --config <file>, init writes a commented project config (profiles,
defaults, constants) to <file> instead; name it .jobsrc.yaml for jobs to find it.

A Markdown advert (--markdown, or a file named .md) holds the same fields in YAML front matter
between two --- lines; its body is the job description (see docs/adverts.md).

Examples:
  $ ${name} init adverts/backend-engineer.yaml
  $ ${name} init --markdown adverts/backend-engineer.md
  $ ${name} init --config .jobsrc.yaml
  $ ${name} init - > advert.yaml`,
    )
    .action(
      action(async (ctx, file: string | undefined, flags: InitFlags) => {
        const { runInit } = await import('./run.js');
        return runInit(ctx, file, flags);
      }),
    );
}
