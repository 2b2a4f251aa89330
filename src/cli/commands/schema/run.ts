/** The resolved schemas: the project's config applied to the shipped advert schemas (see core/scaffold/resolved-schema). */
import type { Context } from '../../context.js';
import { readSchemaText } from '../../../core/scaffold/package-files.js';
import { projectDirOf, resolvedSchema, resolvedSchemaPath, writeResolvedSchema } from '../../../core/scaffold/resolved-schema.js';
import { userConfigDir } from '../../../core/config/paths.js';

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
