/**
 * A `validate` checked on one thread may have its files read ahead on another
 * (dist/read-ahead-worker.cjs): what it reports, and in which order, must be what it reports when it
 * reads each file itself, odd files included (the reader leaves those to the checking thread).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realisticAdvertYaml } from '../../bench/generate.mjs';
import { isolatedEnv, jobs, ROOT } from './helpers.js';

describe('jobs validate with files read ahead (built binary)', () => {
  // More files than the reader's ring holds (256), so it fills, waits and goes on.
  const dir = mkdtempSync(join(tmpdir(), 'jobs-read-ahead-'));
  const invalid = (i: number) => realisticAdvertYaml(i).replace(/^seniority: \d+$/m, 'seniority: -1');
  const odd = new Set([200, 300, 400, 401, 402, 403, 404, 405]);
  for (let i = 0; i < 700; i++) {
    if (odd.has(i)) continue;
    const text = i === 123 || i === 650 ? invalid(i) : realisticAdvertYaml(i, { bullets: i % 2 === 0 });
    writeFileSync(join(dir, `ad-${String(i).padStart(4, '0')}.yaml`), text);
  }
  writeFileSync(join(dir, 'ad-0200.yaml'), 'title: [unclosed\n');
  // Larger than a slot of the ring (64 KiB): read by the checking thread.
  writeFileSync(join(dir, 'ad-0300.yaml'), invalid(300).replace(/^title: .*$/m, `title: ${'long '.repeat(20_000)}`));
  writeFileSync(join(dir, 'ad-0400.yaml'), Buffer.from([0x74, 0x69, 0x74, 0x6c, 0x65, 0x3a, 0x20, 0xff, 0x0a]));
  writeFileSync(join(dir, 'ad-0401.yaml'), 'title: a\x00b\n');
  writeFileSync(join(dir, 'ad-0402.yaml'), '');
  const elsewhere = mkdtempSync(join(tmpdir(), 'jobs-read-ahead-target-'));
  writeFileSync(join(elsewhere, 'target.yaml'), invalid(403));
  symlinkSync(join(elsewhere, 'target.yaml'), join(dir, 'ad-0403.yaml'));
  // A folder and a FIFO by advert names: the walk deals with them before any reading.
  mkdirSync(join(dir, 'ad-0404.yaml'));
  writeFileSync(join(dir, 'ad-0404.yaml', 'inner.yaml'), invalid(404));
  execFileSync('mkfifo', [join(dir, 'ad-0405.yaml')]);

  afterAll(() => {
    for (const d of [dir, elsewhere]) rmSync(d, { recursive: true, force: true });
  });

  it('reports exactly what reading each file on the checking thread reports', async () => {
    expect(existsSync(join(ROOT, 'dist/read-ahead-worker.cjs'))).toBe(true);
    const run = (readAhead: string) => jobs(['validate', '--verbose', '.'], { cwd: dir, env: isolatedEnv({ JOBS_WORKERS: '0', JOBS_READ_AHEAD: readAhead }), timeoutMs: 60_000 });
    const [alone, ahead] = await Promise.all([run('0'), run('1')]);
    // --verbose says how the run used threads: here, some files came through the reader (699: the
    // names less the folder and the FIFO, plus the file in the folder).
    const [aloneTrace, ...aloneRest] = alone.stderr.split('\n');
    const [aheadTrace, ...aheadRest] = ahead.stderr.split('\n');
    expect(aloneTrace).toBe('checked on one thread');
    const used = /^checked on one thread; (\d+) of 699 files read ahead on another$/.exec(aheadTrace!);
    expect(used, aheadTrace).not.toBeNull();
    expect(Number(used![1])).toBeGreaterThan(0);
    // The findings (a syntax error's drawing of its lines follows it, indented).
    const lines = alone.stdout.trimEnd().split('\n').filter((l) => l.startsWith('✖'));
    // The run has something to say about each odd file, in file order.
    expect(lines.map((l) => l.slice(0, l.indexOf(':', 2)))).toEqual([
      '✖ ad-0123.yaml',
      '✖ ad-0200.yaml',
      '✖ ad-0300.yaml',
      '✖ ad-0400.yaml',
      '✖ ad-0401.yaml',
      '✖ ad-0402.yaml',
      '✖ ad-0403.yaml',
      '✖ ad-0404.yaml/inner.yaml',
      '✖ ad-0405.yaml',
      '✖ ad-0650.yaml',
    ]);
    expect([ahead.code, ahead.stdout, aheadRest]).toEqual([alone.code, alone.stdout, aloneRest]);
    expect(alone.code).toBe(3);
  }, 120_000);
});
