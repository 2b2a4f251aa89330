/** `--sandbox` runs in parallel share one data file: the built binary, spawned several times at once. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { advert } from '../support/sandbox-server.js';

describe('embedded sandbox: parallel runs sharing its data file', () => {
  it('keeps every advert when 4 runs publish 10 distinct adverts each at the same time', async () => {
    const env = isolatedEnv();
    const runs = [0, 1, 2, 3];
    const folders = runs.map((run) => {
      const folder = join(env.HOME!, `adverts-${run}`);
      mkdirSync(folder);
      for (let i = 0; i < 10; i++) writeFileSync(join(folder, `a${i}.yaml`), stringify(advert(`RUN${run}-${i}`)));
      return folder;
    });
    const results = await Promise.all(folders.map((folder) => jobs(['--sandbox', 'publish', folder], { env, timeoutMs: 60_000 })));
    for (const r of results) expect(r.code, r.stderr).toBe(0);

    const state = JSON.parse(readFileSync(join(env.XDG_STATE_HOME!, 'jobs', 'sandbox.json'), 'utf8')) as { adverts: { reference: string }[] };
    const expected = runs.flatMap((run) => Array.from({ length: 10 }, (_, i) => `RUN${run}-${i}`));
    expect(state.adverts.map((a) => a.reference).sort()).toEqual(expected.sort());
    // And the service says so too: each one has statistics.
    const stats = await jobs(['--sandbox', 'stats', ...expected, '--json'], { env, timeoutMs: 60_000 });
    expect(stats.code, stats.stderr).toBe(0);
    expect((JSON.parse(stats.stdout) as { stats: { views?: number }[] }).stats.filter((s) => typeof s.views === 'number')).toHaveLength(40);
  }, 120_000);
});
