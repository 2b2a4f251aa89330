/**
 * `jobs init`: writes a commented advert (or, with --config <file>, a commented project config)
 * whose first line names the shipped schema for YAML-language-server editors. Never overwrites
 * without --force.
 *
 * `--config <file>` is the global option ("use this config file"); for init it names the config
 * file to create. init cannot have a bare `--config` switch of its own: commander gives the global
 * `--config <file>` every `--config` on the line, wherever it stands.
 */
import { jsonText } from '../../output/json-output.js';
import { statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors/failures.js';
import { notRegularKind } from '../../../core/util/quick-fs.js';
import { paint } from '../../output/summary.js';
import { relativeRef, schemaReference, type SchemaRef } from '../../../core/scaffold/schema-ref.js';
import { advertTemplate, configTemplate, markdownAdvertTemplate } from '../../../core/scaffold/templates.js';
import { newReference } from '../../../core/scaffold/new-reference.js';
import { isMarkdownName } from '../../../core/adverts/markdown.js';
import { createFile, replaceFile } from '../../../core/storage/replace.js';
import { cannotWrite } from '../../../core/storage/errors.js';
import { configShapesAdverts, writeProjectSchema } from '../schema/run.js';
import { isJson } from '../../output/command-io.js';

export interface InitFlags {
  force?: boolean;
  /** A Markdown advert (front matter and body); a target named *.md is one without the flag. */
  markdown?: boolean;
}

export const DEFAULT_ADVERT_FILE = 'advert.yaml';
export const DEFAULT_MARKDOWN_FILE = 'advert.md';
export const DEFAULT_CONFIG_FILE = '.jobsrc.yaml';

export async function runInit(ctx: Context, fileArg: string | undefined, flags: InitFlags): Promise<number> {
  const configFile = ctx.globals.config;
  if (configFile !== undefined && fileArg !== undefined) {
    throw new UsageError(`init writes one file: an advert to ${fileArg}, or a config to ${configFile} (--config), not both`, {
      details: [`${ctx.name} init adverts/new.yaml      an advert`, `${ctx.name} init --config .jobsrc.yaml  a project config`],
    });
  }
  const writingConfig = configFile !== undefined;
  if (writingConfig && flags.markdown) throw new UsageError('--markdown scaffolds an advert, not a config: drop --config, or --markdown');
  const markdown = !writingConfig && (flags.markdown === true || (fileArg !== undefined && isMarkdownName(fileArg)));
  if (markdown && fileArg !== undefined && /\.(ya?ml|json)$/i.test(fileArg)) {
    throw new UsageError(`--markdown writes a Markdown advert, but ${fileArg} is named as YAML or JSON; name it .md, or drop --markdown`);
  }
  const file = configFile ?? fileArg;
  const kind = writingConfig ? 'config' : 'create';
  const defaultName = writingConfig ? DEFAULT_CONFIG_FILE : markdown ? DEFAULT_MARKDOWN_FILE : DEFAULT_ADVERT_FILE;
  // Only what the user chose is written active: the service's URL (--base-url) and its profile's name (--profile).
  const choices = {
    ...(ctx.globals.baseUrl !== undefined ? { baseUrl: ctx.globals.baseUrl } : {}),
    ...(ctx.globals.profile !== undefined ? { profile: ctx.globals.profile } : {}),
  };
  // An advert gets a reference of its own (the file's name and a random part): two new adverts never replace each other.
  const render = (ref: SchemaRef, target?: string) =>
    writingConfig
      ? configTemplate(ref.reference, choices)
      : markdown
        ? markdownAdvertTemplate(newReference(target))
        : advertTemplate(ref.reference, newReference(target));

  if (file === '-') {
    ctx.io.stdout.write(render(schemaReference(ctx.cwd, kind)));
    return 0;
  }

  let target = resolve(ctx.cwd, file ?? defaultName);
  // A folder, existing or named with a trailing slash, gets the default name inside.
  if (/[\\/]$/.test(file ?? '') || statSync(target, { throwIfNoEntry: false })?.isDirectory()) target = join(target, defaultName);
  const shown = relative(ctx.cwd, target) || target;
  // Writing to a FIFO waits for a reader forever (even with --force): refused by name, unopened.
  const existing = statSync(target, { throwIfNoEntry: false });
  const oddKind = existing ? notRegularKind(existing) : undefined;
  if (oddKind) throw new UsageError(`${shown} is ${oddKind}, not a regular file; nothing was written`);
  // A Markdown advert names no schema (no editor checks front matter against one): nothing to write beside it.
  const ref = writingConfig || markdown ? schemaReference(dirname(target), kind) : await advertSchemaReference(ctx, dirname(target));
  try {
    // A new file fails when the name is taken, without a window between a check and the write;
    // --force replaces a file atomically. Neither writes through a link.
    if (flags.force) replaceFile(target, render(ref, target), { durable: false, mode: 0o644 });
    else createFile(target, render(ref, target), { mode: 0o644 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UsageError(`${shown} already exists; nothing was written`, {
        details: [`pass --force to overwrite it, or name another file: ${ctx.name} init <file>`],
      });
    }
    throw cannotWrite(shown, target, error, { after: '; nothing was written' });
  }

  if (isJson(ctx)) {
    ctx.io.stdout.write(
      jsonText({
        file: shown,
        kind: writingConfig ? 'config' : 'advert',
        schema: ref.reference,
        schema_kind: ref.kind,
        ...(markdown ? { format: 'markdown' } : {}),
      }),
    );
    return 0;
  }
  if (ctx.globals.quiet) return 0;
  const c = paint(ctx, ctx.io.stderr);
  const lines = [markdown ? `${c.green('✔')} wrote ${shown}` : `${c.green('✔')} wrote ${shown}  ${c.dim(`($schema: ${ref.reference})`)}`];
  if (ref.kind === 'resolved' && !markdown) {
    lines.push(`  the schema holds the project config's defaults and constants; after changing them, run '${ctx.name} schema create --resolved --write'`);
  }
  if (ref.kind === 'absolute' && !markdown) {
    lines.push(
      `  the schema path is absolute: it works on this machine only; in a shared project, install jobs there (npm install -D jobs-cli) and run ${ctx.name} init again`,
    );
  }
  const next =
    choices.baseUrl !== undefined
      ? `run '${ctx.name} login', then '${ctx.name} doctor'`
      : `set the service's URL (uncomment profile and profiles in ${shown}, or write it with '${ctx.name} init --config ${shown} --base-url <url> --force'), run '${ctx.name} login', then '${ctx.name} doctor'`;
  lines.push(writingConfig ? `  next: ${next}` : `  next: edit it, then run '${ctx.name} validate ${shown}'`);
  ctx.io.stderr.write(`${lines.join('\n')}\n`);
  return 0;
}

/**
 * Where a new advert's modeline points: with a project config that sets defaults or constants, the
 * schema resolved from it (written, or refreshed, now beside the config), so the editor accepts what
 * `jobs validate` accepts; otherwise the shipped schema.
 */
async function advertSchemaReference(ctx: Context, dir: string): Promise<SchemaRef> {
  if (!(await configShapesAdverts(ctx))) return schemaReference(dir, 'create');
  const path = await writeProjectSchema(ctx, 'create');
  return { reference: relativeRef(dir, path), kind: 'resolved' };
}
