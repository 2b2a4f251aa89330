/**
 * JOBS_TODAY sets today for an advert's dates, except with --sandbox, where the sandbox's own clock
 * does (jobs sandbox --fast-forward). It was dropped without a word, even when it was no date at all.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const WARNING =
  "jobs-cli: warning: JOBS_TODAY is ignored with --sandbox: the embedded sandbox's own clock gives today (jobs sandbox --fast-forward moves it); unset JOBS_TODAY, or run without --sandbox\n";
const homes: string[] = [];
const env = (extra: Record<string, string> = {}) => {
  const e = isolatedEnv(extra);
  homes.push(e.HOME!);
  return e;
};
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describe('JOBS_TODAY with --sandbox (built binary)', () => {
  for (const value of ['2027-01-01', 'garbage']) {
    it(`JOBS_TODAY=${value}: sync, validate and stats say once that it is ignored`, async () => {
      const e = env({ JOBS_TODAY: value });
      for (const args of [
        ['--sandbox', 'sync', 'examples/adverts', '--dry-run'],
        ['--sandbox', 'validate', 'examples/adverts'],
      ]) {
        const r = await jobs(args, { env: e });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr.split(WARNING)).toHaveLength(2);
      }
    }, 30_000);
  }

  it('unset, or without --sandbox: no warning', async () => {
    expect((await jobs(['--sandbox', 'validate', 'examples/adverts'], { env: env() })).stderr).not.toContain('JOBS_TODAY');
    expect((await jobs(['validate', 'examples/adverts'], { env: env({ JOBS_TODAY: '2027-01-01' }) })).stderr).not.toContain('JOBS_TODAY');
  });
});
