/**
 * A bulk `--sandbox` run whose embedded sandbox cannot keep a change (a link planted at its journal)
 * says the file and the reason once and stops: no other advert is sent to meet the same refusal,
 * those not started are counted, nothing is retried, exit 2 (docs/sandbox.md). Before, every advert
 * was sent and each printed the same message.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const ADVERT = readFileSync(join(ROOT, 'examples/adverts/backend-engineer.yaml'), 'utf8');

/** A folder of six adverts, and a state folder whose journal is a link to a file that is not there. */
function planted(): { ads: string; env: Record<string, string>; journal: string; elsewhere: string } {
  const dir = tempDir('jobs-sandbox-bulk-');
  const ads = join(dir, 'ads');
  mkdirSync(ads);
  for (let i = 1; i <= 6; i++) writeFileSync(join(ads, `ad-${i}.yaml`), ADVERT.replace(/^reference: .*$/m, `reference: BULK-${i}`));
  mkdirSync(join(dir, 'state', 'jobs'), { recursive: true });
  const journal = join(dir, 'state', 'jobs', 'sandbox.json.journal');
  const elsewhere = join(dir, 'elsewhere');
  symlinkSync(elsewhere, journal);
  return { ads, env: isolatedEnv({ XDG_STATE_HOME: join(dir, 'state') }), journal, elsewhere };
}

const said = (journal: string) => `cannot write the embedded sandbox's file ${journal}: it is a symbolic link; jobs does not write through it`;

describe('--sandbox publish/sync of a folder when the sandbox cannot write its journal', () => {
  it('publish: the reason once, the other adverts not started, exit 2, no retries', async () => {
    const { ads, env, journal } = planted();
    const r = await jobs(['--sandbox', 'publish', ads, '--concurrency', '2'], { env });
    expect(r.code, r.stderr).toBe(2);
    const out = r.stdout + r.stderr;
    expect(out.split(said(journal))).toHaveLength(2);
    // Adverts already in flight when it happened: named, without the reason again.
    expect(out.split(': the same error as above').length - 1).toBeLessThanOrEqual(1);
    expect(r.stderr).toMatch(/✖ 6 adverts: [12] failed, [45] not started\n/);
    expect(r.stderr).not.toMatch(/retrying|internal/);
  });

  it('publish one at a time: one advert fails, five are not started', async () => {
    const { ads, env, journal } = planted();
    const r = await jobs(['--sandbox', 'publish', ads, '--concurrency', '1'], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout.trimEnd().split('\n')).toEqual([expect.stringMatching(/^✖ failed BULK-1 \S*ad-1\.yaml:3: /)]);
    expect(r.stdout).toContain(said(journal));
    expect(r.stderr).toContain('✖ 6 adverts: 1 failed, 5 not started\n');
  });

  it('sync: the reason once, the rest not started, exit 2', async () => {
    const { ads, env, journal, elsewhere } = planted();
    const r = await jobs(['--sandbox', 'sync', ads, '--concurrency', '2'], { env });
    expect(r.code, r.stderr).toBe(2);
    const out = r.stdout + r.stderr;
    expect(out.split(said(journal))).toHaveLength(2);
    expect(r.stderr).toMatch(/✖ sync incomplete: [12] failed, 0 unchanged, [45] not started\n/);
    expect(r.stderr).not.toMatch(/retrying|internal/);
    expect(() => readFileSync(elsewhere)).toThrow();
  });

  it('a link planted at its data file: refused before the change is journaled, so the advert that failed is not kept', async () => {
    const dir = tempDir('jobs-sandbox-data-link-');
    const state = join(dir, 'state', 'jobs');
    mkdirSync(state, { recursive: true });
    writeFileSync(join(dir, 'real.json'), '\n');
    symlinkSync(join(dir, 'real.json'), join(state, 'sandbox.json'));
    const ads = join(dir, 'ads');
    mkdirSync(ads);
    writeFileSync(join(ads, 'ad.yaml'), ADVERT);
    const env = isolatedEnv({ XDG_STATE_HOME: join(dir, 'state') });
    const r = await jobs(['--sandbox', 'publish', ads], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain(`cannot write the embedded sandbox's file ${join(state, 'sandbox.json')}: it is a symbolic link`);
    // Before, the change went to the journal first: reported failed, yet the sandbox had it.
    expect(existsSync(join(state, 'sandbox.json.journal'))).toBe(false);
    expect(readFileSync(join(dir, 'real.json'), 'utf8')).toBe('\n');
  });
});
