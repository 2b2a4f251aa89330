/**
 * A large `validate` spreads its files over worker threads (dist/validate-worker.cjs); what it
 * reports, and in which order, must be what one thread reports.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realisticAdvertYaml } from '../../bench/generate.mjs';
import { isolatedEnv, jobs, ROOT } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

describe('jobs validate of 1,500 files (built binary)', () => {
  const dir = tempDir('jobs-many-');
  for (let i = 0; i < 1500; i++) {
    let text = realisticAdvertYaml(i, { bullets: i % 3 === 0 });
    if (i === 77 || i === 1404) text = text.replace(/^seniority: \d+$/m, 'seniority: -1');
    if (i === 1499) text = text.replace(/^reference: .*$/m, 'reference: "REAL-0000002"');
    writeFileSync(join(dir, `ad-${String(1499 - i).padStart(4, '0')}.yaml`), text);
  }
  writeFileSync(join(dir, 'ad-0500.yaml'), 'title: [unclosed\n');
  const expected = [
    '✖ ad-0095.yaml:34:12: seniority: must be at least 0 [less_than:0]',
    '✖ ad-0500.yaml:2:1: Flow sequence in block collection',
    '✖ ad-1422.yaml:34:12: seniority: must be at least 0 [less_than:0]',
    // Files are read in name order: ad-0000 (advert 1499) takes the reference first.
    '✖ ad-1497.yaml:3:12: reference "REAL-0000002" is already used by ad-0000.yaml:3:12; each advert needs its own',
  ];

  it('reports as one thread does, in file order, whatever the number of threads', async () => {
    expect(existsSync(join(ROOT, 'dist/validate-worker.cjs'))).toBe(true);
    const runs = await Promise.all(['0', '1', '3'].map((n) => jobs(['validate', '.'], { cwd: dir, env: isolatedEnv({ JOBS_WORKERS: n }), timeoutMs: 60_000 })));
    for (const r of runs) {
      // The parser's drawing of the syntax error follows its line, indented: the findings are the ✖ lines.
      const lines = r.stdout
        .trimEnd()
        .split('\n')
        .filter((l) => l.startsWith('✖'));
      expect(lines.map((l, i) => l.slice(0, expected[i]?.length))).toEqual(expected);
      expect(r.stderr).toBe('✖ 4 errors: 1499 adverts in 1500 files checked, 3 invalid (1 duplicate reference), 1 file with YAML errors\n');
      expect(r.code).toBe(3);
    }
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout);
    expect(runs[2]!.stdout).toBe(runs[0]!.stdout);
  }, 120_000);

  it('reads stdin on the main thread when it comes first, before the files a worker takes', async () => {
    const advert = realisticAdvertYaml(5000).replace(/^seniority: \d+$/m, 'seniority: -2');
    const r = await jobs(['validate', '-', '.'], { cwd: dir, input: advert, env: isolatedEnv({ JOBS_WORKERS: '1' }), timeoutMs: 60_000 });
    expect(r.stdout.split('\n')[0]).toBe('✖ <stdin>:32:12: seniority: must be at least 0 [less_than:0]');
    expect(r.stderr).toBe('✖ 5 errors: 1500 adverts in 1501 files checked, 4 invalid (1 duplicate reference), 1 file with YAML errors\n');
  }, 60_000);

  it('stops with a usage error (exit 2) for a missing path named after a large folder', async () => {
    const r = await jobs(['validate', '.', 'missing.yaml'], { cwd: dir, env: isolatedEnv({ JOBS_WORKERS: '1' }), timeoutMs: 60_000 });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'jobs-cli: missing.yaml: no such file or folder\n']);
  }, 60_000);
});
