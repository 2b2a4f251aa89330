/**
 * The advert schema as this project's config makes it, for editors: `jobs validate` merges the
 * config's `defaults` under every advert and reads constant names (`contract_id: permanent`), so a
 * field a default fills is optional here, and a field that takes a family's ids also takes its
 * names. Without this, an editor marks red the adverts that `jobs validate` accepts.
 */
import { lstatSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { UsageError } from '../errors/failures.js';
import { cannotWrite } from '../storage/errors.js';
import { replaceFile } from '../storage/replace.js';
import { prepareToolFolder, TOOL_FOLDER } from '../storage/tool-folder.js';
import type { AdvertSettings } from '../validation/check.js';
import type { ConstantFamily } from '../config/types.js';

type Schema = Record<string, unknown> & {
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  oneOf?: Schema[];
  if?: Schema;
  then?: Schema;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const INTEGER_TEXT = '^-?\\d+$';

/** The shipped advert schema (create or update) with the project's defaults and constants applied. */
export function resolvedSchema(shipped: Record<string, unknown>, settings: AdvertSettings, kind: 'create' | 'update'): Record<string, unknown> {
  const schema = structuredClone(shipped) as Schema;
  schema.$id = `${String(schema.$id ?? 'urn:jobs-cli:schemas:advert')}:resolved`;
  schema.description =
    `${String(schema.description ?? '')} Resolved for a project: its config's defaults make fields optional and its constants' names are accepted (written by jobs schema ${kind} --resolved).`.trim();
  if (kind === 'create') relax(schema, settings.defaults);
  withNames(schema, settings.constants);
  return schema;
}

/** Fields a default fills are not required; a nested object's, level by level. */
function relax(schema: Schema, defaults: Record<string, unknown>): void {
  const props = schema.properties ?? {};
  for (const [key, value] of Object.entries(defaults)) {
    const prop = props[key];
    if (!prop) continue;
    // A default location is merged under each place of a `locations:` list too.
    if (key === 'location' && isObject(value) && isObject(props.locations?.items)) relax(props.locations.items, value);
    if (isObject(value) && isObject(prop.properties)) {
      relax(prop, value);
      // Still required when the default leaves some of its required fields to the advert.
      if ((prop.required ?? []).length > 0) continue;
    }
    if (schema.required) schema.required = schema.required.filter((r) => r !== key);
    // `location` or `locations`: with a whole location by default, neither is needed.
    if (schema.oneOf?.some((alternative) => alternative.required?.includes(key))) delete schema.oneOf;
  }
  relaxCondition(schema, defaults);
}

/**
 * A rule like "country US, CA or MX needs a state" read against the defaults: a defaulted state
 * meets it; a defaulted country that matches makes it apply when the advert gives no country.
 */
function relaxCondition(schema: Schema, defaults: Record<string, unknown>): void {
  const { if: condition, then } = schema;
  if (!condition || !then) return;
  if (then.required) then.required = then.required.filter((r) => !(r in defaults));
  if (then.required && then.required.length === 0 && Object.keys(then).length === 1) {
    delete schema.if;
    delete schema.then;
    return;
  }
  for (const key of condition.required ?? []) {
    if (!(key in defaults)) continue;
    const allowed = (condition.properties?.[key] as Schema | undefined)?.enum as unknown[] | undefined;
    if (allowed?.includes(defaults[key])) schema.if = { anyOf: [condition, { not: { required: [key] } }] };
  }
}

/** Fields that take a constant family's ids also take the names the config gives them. */
function withNames(schema: Schema, constants: AdvertSettings['constants']): void {
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    const family = prop['x-constant-family'] as ConstantFamily | undefined;
    const map = family ? constants[family] : undefined;
    if (isObject(map) && Object.keys(map).length > 0) {
      const { title, description, 'x-constant-family': _family, ...rest } = prop;
      const names = [...new Set([...Object.keys(map), ...Object.values(map).filter((v): v is string => typeof v === 'string')])];
      const alternatives: Schema[] = [rest, { type: 'string', enum: names }];
      // An id written as text (`contract_id: "3"`) passes too, as jobs validate reads it.
      if (key.endsWith('_id')) alternatives.push({ type: 'string', pattern: INTEGER_TEXT });
      schema.properties![key] = { ...(title ? { title } : {}), ...(description ? { description } : {}), 'x-constant-family': family, anyOf: alternatives };
    } else if (isObject(prop.properties)) withNames(prop, constants);
  }
}

/** Where a project's resolved schemas live: beside its config, so every advert in it can point there. */
export const RESOLVED_DIR = '.jobs';
const RESOLVED_FILES = { create: 'advert.schema.json', update: 'advert-update.schema.json' } as const;

export function resolvedSchemaPath(projectDir: string, kind: 'create' | 'update'): string {
  return join(projectDir, RESOLVED_DIR, RESOLVED_FILES[kind]);
}

/**
 * The folder of the project's config (the nearest config file that is not the user's own), or
 * `cwd` when there is none.
 */
export function projectDirOf(configFiles: readonly string[], userConfigDir: string, cwd: string): string {
  const project = configFiles.find((f) => relative(userConfigDir, f).startsWith('..') || isAbsolute(relative(userConfigDir, f)));
  return project ? dirname(project) : cwd;
}

/** Writes the schema whole or not at all (a temporary file renamed over it): an editor never reads half. */
export function writeResolvedSchema(path: string, schema: Record<string, unknown>): void {
  // The tool writes its own files only where it put them: a link in place of the folder is not followed.
  if (lstatSync(dirname(path), { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new UsageError(`${dirname(path)} is a symbolic link; the resolved schema is not written through it`, {
      details: ['remove the link and run the command again'],
    });
  }
  if (basename(dirname(path)) === TOOL_FOLDER) prepareToolFolder(dirname(path));
  try {
    // Not durable: rebuilt by running the command again.
    replaceFile(path, `${JSON.stringify(schema, null, 2)}\n`, { durable: false, mode: 0o644 });
  } catch (error) {
    throw cannotWrite(path, path, error, { what: 'the resolved schema' });
  }
}
