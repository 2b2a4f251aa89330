/**
 * Scale: a multi-document file far over 1 MiB is read a group of documents at a time, with every
 * document's number and every line still right; `validate` of many files reports what one thread
 * would, in the same order.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realisticAdvertYaml } from '../../../bench/generate.mjs';
import { runJobs, tempFolder } from '../../commands/harness.js';

describe('a multi-document file of 3,000 adverts (about 6 MiB)', () => {
  const docs = Array.from({ length: 3000 }, (_, i) => realisticAdvertYaml(i, { bullets: i % 2 === 0 }));
  // Two mistakes deep in the file: a seniority that is no number, and a reference used before.
  docs[2500] = docs[2500]!.replace(/^seniority: \d+$/m, 'seniority: senior');
  docs[2999] = docs[2999]!.replace(/^reference: .*$/m, 'reference: "REAL-0000007"');
  const text = docs.join('---\n');
  const lineOf = (doc: number, pattern: RegExp) => {
    const before = docs.slice(0, doc).join('---\n') + (doc > 0 ? '---\n' : '');
    const within = docs[doc]!.split('\n').findIndex((l) => pattern.test(l));
    return before.split('\n').length + within;
  };

  it('validates every document and points at the lines of the two mistakes', async () => {
    expect(text.length).toBeGreaterThan(5 * 1024 * 1024);
    const dir = tempFolder({ 'all.yaml': text });
    const r = await runJobs(['validate', 'all.yaml'], { cwd: dir });
    expect(r.stdout).toBe(
      `✖ all.yaml:${lineOf(2500, /^seniority:/)}:12: seniority: senior is not a number: seniority is a number of years (the minimum experience); write a whole number, e.g. 3 [not_a_number]\n` +
        `✖ all.yaml:${lineOf(2999, /^reference:/)}:12: reference "REAL-0000007" is already used by all.yaml:${lineOf(7, /^reference:/)}:12; each advert needs its own\n`,
    );
    expect(r.stderr).toBe('✖ 2 errors: 3000 adverts in 1 file checked, 2 invalid (1 duplicate reference)\n');
    expect(r.code).toBe(3);
  }, 60_000);

  it('numbers the documents across the whole file (--json)', async () => {
    const dir = tempFolder({ 'all.yaml': text });
    const r = await runJobs(['validate', 'all.yaml', '--json'], { cwd: dir });
    const out = JSON.parse(r.stdout) as { adverts: { document: number; reference: string; valid: boolean }[] };
    expect(out.adverts).toHaveLength(3000);
    expect(out.adverts.map((a) => a.document)).toEqual(docs.map((_, i) => i));
    expect(out.adverts.filter((a) => !a.valid).map((a) => a.document)).toEqual([2500]);
  }, 60_000);

  it('refuses a file over 64 MiB, saying what to do', async () => {
    const dir = tempFolder({});
    writeFileSync(join(dir, 'huge.yaml'), Buffer.alloc(64 * 1024 * 1024 + 10, 'a'));
    const r = await runJobs(['validate', 'huge.yaml'], { cwd: dir });
    expect(r.stdout).toBe('✖ huge.yaml: the file is 67108874 bytes; the limit is 67108864 (64 MiB) per file: split its documents over several files\n');
    expect(r.code).toBe(3);
  }, 60_000);
});

describe('repeated references, told apart by a hash first', () => {
  it('two references with one hash are not taken for one; a real repeat names the file it repeats', async () => {
    const { hashOf } = await import('../../../src/core/bulk/duplicate-references.js');
    // A birthday search among at most 400,000 scattered names finds two with the same 30-bit hash.
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; i < 400_000 && !pair; i++) {
      const name = `REF-${(Math.imul(i, 2654435761) >>> 0).toString(36)}`;
      const other = seen.get(hashOf(name));
      if (other !== undefined) pair = [other, name];
      else seen.set(hashOf(name), name);
    }
    expect(pair).toBeDefined();
    const [first, second] = pair!;
    const advert = (reference: string) => realisticAdvertYaml(1).replace(/^reference: .*$/m, `reference: "${reference}"`);
    const dir = tempFolder({ 'a.yaml': advert(first), 'b.yaml': advert(second), 'c.yaml': advert(second), 'd.yaml': advert(first) });
    const r = await runJobs(['validate', '.'], { cwd: dir });
    expect(r.stdout).toBe(
      `✖ c.yaml:3:12: reference "${second}" is already used by b.yaml:3:12; each advert needs its own\n` +
        `✖ d.yaml:3:12: reference "${first}" is already used by a.yaml:3:12; each advert needs its own\n`,
    );
    expect(r.code).toBe(3);
  });
});
