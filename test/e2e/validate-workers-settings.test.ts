/**
 * A run of many files hands its settings to the worker threads whole (src/core/bulk/check-file.ts,
 * CheckSettings): defaults, constants and --allow-unknown-fields each change what the files' checks
 * find, and a run shared with a worker must find exactly what one thread finds. Before, the worker's
 * settings were listed field by field, so a setting left out there was dropped from runs of 1,000
 * files or more only.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realisticAdvertYaml } from '../../bench/generate.mjs';
import { isolatedEnv, jobs } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const FILES = 1200;

describe('jobs validate of 1,200 files with settings that change the findings (built binary)', () => {
  const dir = tempDir('jobs-worker-settings-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (let i = 0; i < FILES; i++) {
    // organization_name comes from the defaults, contract_id from a constant's name, and every
    // fifth advert has a field the schema does not know.
    let text = realisticAdvertYaml(i)
      .replace(/^organization_name: .*\n/m, '')
      .replace(/^contract_id: \d+/m, 'contract_id: permanent');
    if (i % 5 === 0) text += 'internal_note: checked by legal\n';
    writeFileSync(join(dir, `ad-${String(i).padStart(4, '0')}.yaml`), text);
  }
  const config = 'defaults:\n  organization_name: ACME Robotics\nconstants:\n  contract: { permanent: 1, temporary: 2 }\n';

  it('finds the same with a worker thread as on one thread, and the settings are what make the files valid', { timeout: 120_000 }, async () => {
    writeFileSync(join(dir, '.jobsrc.yaml'), config);
    const run = (workers: string, args: string[] = []) =>
      jobs(['validate', '--verbose', ...args, '.'], { cwd: dir, env: isolatedEnv({ JOBS_WORKERS: workers }), timeoutMs: 100_000 });
    const [one, shared] = await Promise.all([run('0', ['--allow-unknown-fields']), run('1', ['--allow-unknown-fields'])]);
    expect(one.stderr).toContain('checked on one thread\n');
    expect(shared.stderr).toContain('checking on this thread and 1 worker thread\n');
    for (const r of [one, shared]) {
      expect(r.stderr, r.stdout.slice(0, 2000)).toContain(`✔ ${FILES} adverts in ${FILES} files: all valid\n`);
      expect(r.code).toBe(0);
    }
    // Without --allow-unknown-fields, every fifth advert is invalid, on either path alike.
    const [strictOne, strictShared] = await Promise.all([run('0'), run('1')]);
    expect(strictOne.stderr).toContain(`${FILES / 5} invalid`);
    expect(strictShared.stdout).toBe(strictOne.stdout);
    // Without the config, every advert is invalid: the settings above are what changed the findings.
    rmSync(join(dir, '.jobsrc.yaml'));
    const bare = await run('1', ['--allow-unknown-fields']);
    expect(bare.stderr).toContain(`${FILES} invalid`);
    expect(bare.code).toBe(3);
  });
});
