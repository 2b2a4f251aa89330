/** `jobs rules` lists the wording checks after the rules by place: each id, what it checks, its languages and sources; --json too, and the config's off. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const env = () => {
  const e = isolatedEnv({ JOBS_TODAY: '2026-11-27' });
  dirs.push(e.HOME!);
  return e;
};

describe('jobs rules: the wording checks', () => {
  it('lists each wording rule with its sources and licences', async () => {
    const r = await jobs(['rules'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Wording checks (warnings, every place; validate --wording checks them; docs/wording.md)');
    expect(r.stdout).toMatch(
      /wording\/masculine-coded\n {2}More masculine- than feminine-coded words[^\n]*\n {2}languages: de, en\n {2}source: gender-decoder, German port[^\n]*\(MIT[^\n]*\n {2}source: gender-decoder by Kat Matfield[^\n]*\(MIT\)/,
    );
    expect(r.stdout).toContain('wording/unused-ignore');
  });

  it('--json carries them, with the level the config gives; a place or --stale lists none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobs-rules-wording-'));
    dirs.push(dir);
    writeFileSync(join(dir, '.jobsrc.yaml'), 'wording:\n  off: [wording/feminine-coded]\n');
    const json = JSON.parse((await jobs(['rules', '--json'], { cwd: dir, env: env() })).stdout);
    expect(json.wording.map((w: { id: string }) => w.id)).toContain('wording/years-of-young-tech');
    expect(json.wording.find((w: { id: string }) => w.id === 'wording/feminine-coded').level).toBe('off');
    expect(json.wording.find((w: { id: string }) => w.id === 'wording/masculine-coded').level).toBe('warning');
    const placed = JSON.parse((await jobs(['rules', 'AT', '--json'], { cwd: dir, env: env() })).stdout);
    expect(placed.wording).toBeUndefined();
  });
});
