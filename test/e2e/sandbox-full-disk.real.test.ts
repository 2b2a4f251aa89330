/**
 * A `--sandbox` run whose sandbox's disk fills mid-run (a 12 KiB tmpfs, mounted as root, as in CI):
 * the adverts sent before are reported, then the file and the reason once (ENOSPC), and the run
 * stops, exit 2. Before, a write to a full disk named no file, so each later advert got five retries
 * of a 500 "internal" (exit 7 after seconds).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const root = process.getuid?.() === 0;
const ADVERT = readFileSync(join(ROOT, 'examples/adverts/backend-engineer.yaml'), 'utf8');
const mounted: string[] = [];

/** A fresh 12 KiB tmpfs for each run. */
function smallDisk(): string {
  const at = join(tempDir('jobs-sandbox-full-'), 'state');
  mkdirSync(at);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=12k', 'tmpfs', at]);
  mounted.push(at);
  return at;
}

afterAll(() => {
  for (const at of mounted) execFileSync('umount', [at]);
});

describe.runIf(root)('--sandbox when the disk fills mid-run', () => {
  it.each([['publish'], ['sync']])('%s: what was done, then the file and the reason once, the rest not started, exit 2', async (command) => {
    const ads = tempDir('jobs-sandbox-full-ads-');
    for (let i = 1; i <= 9; i++) writeFileSync(join(ads, `ad-${i}.yaml`), ADVERT.replace(/^reference: .*$/m, `reference: FULL-${command}-${i}`));
    const started = Date.now();
    const r = await jobs(['--sandbox', command, ads, '--concurrency', '1'], { env: isolatedEnv({ XDG_STATE_HOME: smallDisk() }) });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toMatch(new RegExp(`✔ created FULL-${command}-1\\b`));
    const said = /cannot write the embedded sandbox's file \S+sandbox\.json(?:\.journal)?: the disk is full \(ENOSPC\)/g;
    expect((r.stdout + r.stderr).match(said)).toHaveLength(1);
    expect(r.stderr).toMatch(/\d+ not started\n/);
    expect(r.stderr).not.toMatch(/retrying|internal/);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
