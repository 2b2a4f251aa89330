/**
 * The format registry is the one description of the output formats: --output's choices and the
 * docs' table come from it, and every command it names exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS, outputFormats } from '../../src/cli/output/format-registry.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { jobsModel } from './cli-shape.js';

const ROOT = join(import.meta.dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');

describe('the output formats', () => {
  it('--output offers exactly the registry’s formats', () => {
    const option = jobsModel().globals.find((o) => o.long === '--output')!;
    expect(option.value).toMatchObject({ type: 'choices', values: outputFormats() });
  });

  it('names only commands that exist', () => {
    const names = COMMANDS.map(([n]) => n);
    for (const f of FORMATS)
      for (const c of [...(f.commands === 'every' ? [] : f.commands), ...(f.except ?? [])]) expect(names, `${f.name}: ${c}`).toContain(c);
  });

  it('docs/ci.md lists each format with the commands that give it', () => {
    const table = DOC.slice(DOC.indexOf('<!-- formats:start -->'), DOC.indexOf('<!-- formats:end -->'));
    const rows = table
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) =>
        l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    const expected = FORMATS.map((f) => [
      `\`${f.name}\``,
      f.commands === 'every' ? (f.except?.length ? `every command but ${f.except.join(', ')}` : 'every command') : f.commands.join(', '),
      f.summary,
    ]);
    expect(rows).toEqual(expected);
  });
});
