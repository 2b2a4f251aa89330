/** The resolved schemas: the project's config applied to the shipped advert schemas (see core/scaffold/resolved-schema). */
import type { Context } from '../../context.js';
import { readSchemaText, schemaPath, type SchemaName } from '../../../core/scaffold/package-files.js';
import { UsageError } from '../../../core/errors/failures.js';
import { projectDirOf, resolvedSchema, resolvedSchemaPath, writeResolvedSchema } from '../../../core/scaffold/resolved-schema.js';
import { userConfigDir } from '../../../core/config/paths.js';
import { frontMatterSchema } from '../../../core/scaffold/front-matter-schema.js';

export interface SchemaFlags {
  path?: boolean;
  resolved?: boolean;
  write?: boolean;
  frontMatter?: boolean;
}

export async function runSchema(ctx: Context, kind: SchemaName, flags: SchemaFlags): Promise<number> {
  if (flags.frontMatter) return runFrontMatterSchema(ctx, kind, flags);
  if (!flags.resolved) {
    if (flags.write) throw new UsageError('--write goes with --resolved');
    ctx.io.stdout.write(flags.path ? `${schemaPath(kind)}\n` : ensureNewline(readSchemaText(kind)));
    return 0;
  }
  if (kind !== 'create' && kind !== 'update') {
    throw new UsageError(`--resolved goes with create or update: the ${kind} schema does not depend on the config`);
  }
  if (!flags.write && !flags.path) {
    ctx.io.stdout.write(`${JSON.stringify(await resolvedFor(ctx, kind), null, 2)}\n`);
    return 0;
  }
  const path = flags.write ? await writeProjectSchema(ctx, kind) : await projectSchemaPath(ctx, kind);
  ctx.io.stdout.write(`${path}\n`);
  return 0;
}

/** The advert schema for a Markdown advert's front matter: job_description is the body, not a field. */
async function runFrontMatterSchema(ctx: Context, kind: SchemaName, flags: SchemaFlags): Promise<number> {
  if (kind !== 'create')
    throw new UsageError(
      `--front-matter goes with create: a Markdown advert is a whole advert, not ${kind === 'update' ? 'a partial update' : `the ${kind} schema`}`,
    );
  if (flags.path || flags.write) {
    throw new UsageError(
      `--front-matter prints the schema; it has no file of its own: save it where your front-matter tool reads it, e.g. '${ctx.name} schema --front-matter > .jobs/advert-front-matter.schema.json'`,
    );
  }
  const base = flags.resolved ? await resolvedFor(ctx, 'create') : (JSON.parse(readSchemaText('create')) as Record<string, unknown>);
  ctx.io.stdout.write(`${JSON.stringify(frontMatterSchema(base), null, 2)}\n`);
  return 0;
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

export async function resolvedFor(ctx: Context, kind: 'create' | 'update'): Promise<Record<string, unknown>> {
  const config = await ctx.config();
  return resolvedSchema(JSON.parse(readSchemaText(kind)) as Record<string, unknown>, config, kind);
}

export async function projectSchemaPath(ctx: Context, kind: 'create' | 'update'): Promise<string> {
  const config = await ctx.config();
  return resolvedSchemaPath(projectDirOf(config.files, userConfigDir(ctx.env), ctx.cwd), kind);
}

/** Writes the resolved schema beside the project config; returns its path. */
export async function writeProjectSchema(ctx: Context, kind: 'create' | 'update'): Promise<string> {
  const path = await projectSchemaPath(ctx, kind);
  writeResolvedSchema(path, await resolvedFor(ctx, kind));
  return path;
}

/** True when the config changes what an advert may hold: editors then need the resolved schema. */
export async function configShapesAdverts(ctx: Context): Promise<boolean> {
  const config = await ctx.config();
  return Object.keys(config.defaults).length > 0 || Object.values(config.constants).some((m) => m && Object.keys(m).length > 0);
}
