/**
 * docs/output.md's "Which schema" table against the code: every command that gives --json has a
 * row naming it and each of its schemas (schemas/output/<command>[-<part>].schema.json), and no
 * row names a command that does not give --json or a schema that is not there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../e2e/helpers.js';
import { JSON_COMMANDS, OUTPUT_SCHEMAS, schemasOf } from './output-schemas.js';

/** The table's rows: the commands named in the first cell (`config get/set` names config), the schemas in the second. */
function rows(): { line: string; commands: string[]; schemas: string[] }[] {
  const section = readFileSync(join(ROOT, 'docs/output.md'), 'utf8')
    .split(/^## Which schema$/m)[1]!
    .split(/^## /m)[0]!;
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) => {
      const [first = '', second = ''] = line.slice(1, -1).split('|');
      const spans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      return {
        line,
        commands: spans(first).map((span) => span.split(/[ /]/)[0]!),
        schemas: spans(second)
          .filter((span) => span.endsWith('.schema.json'))
          .map((span) => span.replace(/\.schema\.json$/, '')),
      };
    });
}

describe('docs/output.md names the schema of every command that gives --json', () => {
  const table = rows();

  it('has one row per such command, naming each of its schemas', () => {
    for (const command of JSON_COMMANDS) {
      const row = table.filter((r) => r.commands.includes(command));
      expect(row.length, `docs/output.md: a row for \`${command}\` in the "Which schema" table`).toBe(1);
      for (const schema of schemasOf(command)) expect(row[0]!.schemas, `docs/output.md, the ${command} row: ${schema}.schema.json`).toContain(schema);
    }
  });

  it('names no other command, and only schemas that are there', () => {
    for (const row of table) {
      for (const command of row.commands) expect(JSON_COMMANDS, `docs/output.md: ${row.line}`).toContain(command);
      for (const schema of row.schemas) expect(OUTPUT_SCHEMAS, `docs/output.md: ${row.line}`).toContain(schema);
    }
  });
});
