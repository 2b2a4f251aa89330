/**
 * Files made to cost: an alias repeated until the advert is a gigabyte, and tens of thousands of
 * fields the schema does not know. Each is refused (exit 3) at once, in little memory, by every
 * command that reads adverts, with the place of the mistake.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jobs-hostile-sizes-'));
const advert = readFileSync(join(ROOT, 'examples/adverts/backend-engineer.yaml'), 'utf8');
const SKILLS = 'skills:\n  - Node.js\n  - TypeScript\n  - PostgreSQL\n';

// 1 MB on disk: `skills:` holds a 1,000,000-character text and 1,000 aliases of it (1 GB expanded).
mkdirSync(join(dir, 'bomb'));
const bomb = advert.replace(SKILLS, `skills:\n  - &big ${'a'.repeat(1_000_000)}\n${'  - *big\n'.repeat(1000)}`);
writeFileSync(join(dir, 'bomb/alias.yaml'), bomb);
const aliasLine = bomb.split('\n').findIndex((l) => l === '  - *big') + 2; // the second alias passes the bound

// About 400 KB: 25,000 fields the schema does not know.
const unknown = advert + Array.from({ length: 25_000 }, (_, i) => `unknown_${i}: x\n`).join('');
writeFileSync(join(dir, 'unknown.yaml'), unknown);
const firstUnknownLine = advert.split('\n').length;

const homes: string[] = [];
/** A fresh HOME per run, removed at the end. */
const fresh = (extra: Record<string, string> = {}) => {
  const env = isolatedEnv(extra);
  homes.push(env.HOME!);
  return env;
};
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe('an alias bomb of text (built binary, 64 MB of heap)', () => {
  const env = () => fresh({ NODE_OPTIONS: '--max-old-space-size=64' });
  const refusal = `bomb/alias.yaml:${aliasLine}:5: the alias *big makes aliases repeat over 1000000 characters in the document (an alias bomb?); write the value out once, or use fewer aliases`;

  for (const args of [
    ['validate', 'bomb/alias.yaml'],
    ['publish', '--dry-run', 'bomb/alias.yaml'],
    ['--sandbox', 'publish', 'bomb/alias.yaml'],
    ['--sandbox', 'sync', '--dry-run', 'bomb'],
  ]) {
    it(`jobs ${args.join(' ')}: refused at the alias, exit 3, nothing expanded`, async () => {
      const r = await jobs(args, { cwd: dir, env: env(), timeoutMs: 30_000 });
      expect(r.stdout + r.stderr, r.stderr.slice(0, 2000)).toContain(refusal);
      expect(r.stderr).not.toMatch(/unexpected error|Invalid string length|heap/i);
      expect(r.code).toBe(3);
    }, 40_000);
  }
});

describe('a file of 25,000 unknown fields (built binary)', () => {
  it('lists the first 50 with suggestions, counts the rest at the first unlisted one, in a few seconds at most', async () => {
    const started = Date.now();
    // Before: about 5 s on a quiet machine (a suggestion per field, each a fresh table of edits).
    const r = await jobs(['validate', 'unknown.yaml'], { cwd: dir, env: fresh(), timeoutMs: 20_000 });
    const took = Date.now() - started;
    expect(r.code).toBe(3);
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('✖ unknown.yaml:'));
    expect(lines).toHaveLength(51);
    expect(lines[0]).toBe(`✖ unknown.yaml:${firstUnknownLine}:12: unknown_0: is not a known field [unknown_field]`);
    expect(lines[50]).toBe(
      `✖ unknown.yaml:${firstUnknownLine + 50}:13: unknown_50: is not a known field, nor are the 24949 fields after it in this mapping (only the first 50 unknown fields are listed): remove them, or check that this is an advert file [more_unknown_fields:24950]`,
    );
    // Well under a second on a quiet machine; the bound leaves room for a loaded one.
    expect(took).toBeLessThan(4000);
  }, 30_000);

  it('a misspelt field among them still gets its suggestion', async () => {
    writeFileSync(join(dir, 'typo.yaml'), advert.replace('title:', 'titel:') + 'unknown_x: 1\n');
    const r = await jobs(['validate', 'typo.yaml'], { cwd: dir, env: fresh() });
    expect(r.stdout).toMatch(/typo\.yaml:\d+:\d+: titel: is not a known field; did you mean title\?/);
  });
});
