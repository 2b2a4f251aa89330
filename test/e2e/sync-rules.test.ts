/**
 * A sync of a folder where one advert breaks a rule by place in force (fixture data: Colorado asks
 * for benefits and the deadline): that advert is not sent, and the run says why at its line. As for
 * any invalid advert, a sync sends nothing until the folder is valid (docs/sync.md).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { advertYaml } from '../commands/harness.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('sync with rules by place', () => {
  it('sends nothing for an advert that breaks a rule in force, and says why', async () => {
    const env = isolatedEnv({ JOBS_TEST_RULES: 'places' });
    const dir = mkdtempSync(join(tmpdir(), 'jobs-sync-rules-'));
    dirs.push(dir, env.HOME!);
    writeFileSync(join(dir, 'oslo.yaml'), advertYaml('OSLO-1'));
    writeFileSync(
      join(dir, 'denver.yaml'),
      advertYaml('DENVER-1').replace('location:\n  country: NO\n  city: Oslo\n', 'location:\n  country: US\n  state: CO\n  city: Denver\n'),
    );
    const r = await jobs(['--sandbox', 'sync', dir, '--yes'], { env, timeoutMs: 30_000 });
    expect(r.code).toBe(3);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /denver\.yaml:14:3: location: is in Colorado, where US-CO\/pay-range asks for: .*add a general description of benefits.*\[place_rule:US_CO_pay_range:benefits\]$/,
      ),
      expect.stringMatching(/denver\.yaml:14:3: location: is in Colorado, .*add the application deadline.*\[place_rule:US_CO_pay_range:deadline\]$/),
    ]);
    expect(r.stderr).toContain('2 errors in the advert files (1 of 2 adverts invalid); nothing was sent');
    expect((await jobs(['--sandbox', 'stats', 'DENVER-1'], { env })).code).toBe(5);
    // Once it says both, it is sent with them in its job description.
    writeFileSync(
      join(dir, 'denver.yaml'),
      `${readFileSync(join(dir, 'denver.yaml'), 'utf8')}jobs:\n  closes: 2099-12-31\n  disclosures:\n    benefits: Health insurance.\n    deadline: true\n`,
    );
    const fixed = await jobs(['--sandbox', 'sync', dir, '--yes'], { env, timeoutMs: 30_000 });
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toContain('created DENVER-1');
  }, 60_000);
});
