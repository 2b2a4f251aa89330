/**
 * Which schemas in schemas/output/ a command's --json answers to, by their names:
 * `<command>.schema.json` and `<command>-<part>.schema.json` (NDJSON line types, other modes:
 * `sync-plan`, `sandbox-fast-forward`). `common` and `error` belong to no one command.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../e2e/helpers.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { gives } from '../../src/cli/output/format-registry.js';

export const OUTPUT = join(ROOT, 'schemas/output');

/** The schemas' names (without .schema.json). */
export const OUTPUT_SCHEMAS: readonly string[] = readdirSync(OUTPUT)
  .filter((file) => file.endsWith('.schema.json'))
  .map((file) => file.replace(/\.schema\.json$/, ''));

export function schemasOf(command: string): string[] {
  return OUTPUT_SCHEMAS.filter((schema) => schema === command || schema.startsWith(`${command}-`));
}

/** The commands that give --json and so have a schema; `schema` prints a JSON Schema, not a result. */
export const JSON_COMMANDS: readonly string[] = COMMANDS.map(([name]) => name).filter((name) => gives('json', name) && name !== 'schema');

/** The errors of a --json document against schemas/output/<schema>.schema.json (none: it holds). */
export async function outputErrors(schema: string, doc: unknown): Promise<unknown[]> {
  const { default: Ajv2020 } = await import('ajv/dist/2020.js');
  const { default: addFormats } = await import('ajv-formats');
  const ajv = new Ajv2020.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  for (const file of readdirSync(OUTPUT)) ajv.addSchema(JSON.parse(readFileSync(join(OUTPUT, file), 'utf8')) as object);
  const validate = ajv.getSchema(`urn:jobs-cli:schemas:output:${schema}`)!;
  return validate(doc) ? [] : [...(validate.errors ?? [])];
}
