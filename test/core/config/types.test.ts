/**
 * The sources a setting can come from (SettingSource, as SETTING_SOURCE_FIELDS) are the ones the
 * output schemas list for `doctor --json` and `config list --json`, with the same fields.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_SOURCE_FIELDS } from '../../../src/core/config/types.js';
import { ROOT } from '../../e2e/helpers.js';

const common = JSON.parse(readFileSync(join(ROOT, 'schemas/output/common.schema.json'), 'utf8')) as {
  $defs: { source: { anyOf: Array<{ type: string; properties?: { kind: { enum: string[] } } & Record<string, unknown> }> } };
};
const inSchema = common.$defs.source.anyOf.find((branch) => branch.type === 'object')!;

describe('SettingSource and the output schema', () => {
  it('list the same kinds', () => {
    expect([...inSchema.properties!.kind.enum].sort()).toEqual(Object.keys(SETTING_SOURCE_FIELDS).sort());
  });

  it("describe every kind's fields", () => {
    for (const fields of Object.values(SETTING_SOURCE_FIELDS) as string[][])
      for (const field of fields) expect(Object.keys(inSchema.properties!)).toContain(field);
  });
});
