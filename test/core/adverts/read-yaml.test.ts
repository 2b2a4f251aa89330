// The one entry point from an advert text to its documents (src/core/adverts/read-yaml.ts).
import { describe, expect, it } from 'vitest';
import { readAdvertYaml } from '../../../src/core/adverts/read-yaml.js';
import { readWithYamlPackage } from '../../../src/core/adverts/yaml-package-reader.js';

describe('readAdvertYaml', () => {
  it('answers at once, without a promise, for the simple YAML the fast reader takes', () => {
    const r = readAdvertYaml('a.yaml', 'reference: A-1\ntitle: Engineer\n---\nreference: A-2\n');
    expect(r).not.toBeInstanceOf(Promise);
    const { adverts, problems } = r as Exclude<typeof r, Promise<unknown>>;
    expect(problems).toEqual([]);
    expect(adverts.map((a) => [a.index, a.value, a.locate(['reference'])])).toEqual([
      [0, { reference: 'A-1', title: 'Engineer' }, { line: 1, column: 12 }],
      [1, { reference: 'A-2' }, { line: 4, column: 12 }],
    ]);
  });

  it('hands anything else to the yaml package: a promise, then the same answer as that reader', async () => {
    const text = 'reference: A-1\nreference: A-2\n';
    const r = readAdvertYaml('b.yaml', text);
    expect(r).toBeInstanceOf(Promise);
    const read = await r;
    expect(read.problems[0]).toMatchObject({ file: 'b.yaml', code: 'duplicate_key', position: { line: 2, column: 1 } });
    expect(read).toEqual(readWithYamlPackage('b.yaml', text, { fieldTypes: (await import('../../../src/core/generated/validators.js')).advertFieldTypes }));
  });

  it('answers synchronously when the yaml package is handed in (the programmatic parseAdverts)', () => {
    const r = readAdvertYaml('c.yaml', 'a: 1\na: 2\n', { yamlPackage: readWithYamlPackage });
    expect(r.problems[0]).toMatchObject({ code: 'duplicate_key', position: { line: 2, column: 1 } });
  });
});
