import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { aliasExcess, lineColumn, MAX_ALIASED_CHARACTERS } from '../../../src/core/util/yaml-aliases.js';

describe('aliasExcess', () => {
  it('is undefined within the bound, and counts what the aliases repeat, not what is written', () => {
    expect(aliasExcess(parseDocument(`a: &x "${'t'.repeat(400_000)}"\nb: [*x, *x]\n`))).toBeUndefined();
    const over = `a: &x "${'t'.repeat(400_000)}"\nb: [*x, *x, *x]\n`;
    const found = aliasExcess(parseDocument(over));
    expect(found?.message).toContain(`the alias *x makes aliases repeat over ${MAX_ALIASED_CHARACTERS} characters`);
    expect(lineColumn(over, found!.offset)).toBe('2:13');
  });

  it('sizes a billion-laughs document without expanding it', () => {
    const lines = ['a0: &a0 "lol"'];
    for (let i = 1; i <= 30; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
    const started = performance.now();
    const found = aliasExcess(parseDocument(lines.join('\n')));
    expect(found).toBeDefined();
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('counts keys repeated by an alias too', () => {
    const text = `m: &m {${Array.from({ length: 10 }, (_, i) => `"${String(i).repeat(60_000)}": 1`).join(', ')}}\nn: [*m, *m]\n`;
    expect(aliasExcess(parseDocument(text))).toBeDefined();
  });
});
