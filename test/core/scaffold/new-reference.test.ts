import { describe, expect, it } from 'vitest';
import { newReference } from '../../../src/core/scaffold/new-reference.js';

const fixed = (size: number) => new Uint8Array(size).map((_, i) => i * 7 + 3);

describe('newReference', () => {
  it("is the file's name in capitals and a random part in Crockford's base 32", () => {
    expect(newReference('adverts/backend-engineer.yaml', fixed)).toBe('BACKEND-ENGINEER-3AHRZ6');
    expect(newReference('Café Crème.md', fixed)).toBe('CAFE-CREME-3AHRZ6');
    expect(newReference(undefined, fixed)).toBe('ADVERT-3AHRZ6');
    expect(newReference('?!.yaml', fixed)).toBe('ADVERT-3AHRZ6');
    expect(newReference(`${'x'.repeat(40)}.yaml`, fixed)).toBe(`${'X'.repeat(24)}-3AHRZ6`);
  });

  it('differs between two new adverts of the same name', () => {
    const seen = new Set(Array.from({ length: 200 }, () => newReference('advert.yaml')));
    expect(seen.size).toBe(200);
    for (const r of seen) expect(r).toMatch(/^ADVERT-[0-9A-HJKMNP-TV-Z]{6}$/);
  });
});
