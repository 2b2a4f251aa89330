/** A new user finds application ids in --sandbox mode: `stats` lists them with a command to try. */
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { liveSandbox } from './sandbox.js';

describe('jobs --sandbox stats: application ids to try jobs event with', () => {
  it('lists the newest application ids on stderr, and the suggested command works as shown', async () => {
    const env = isolatedEnv();
    expect((await jobs(['--sandbox', 'publish', 'examples/adverts/'], { env })).code).toBe(0);

    const stats = await jobs(['--sandbox', 'stats', 'ACME-0042'], { env });
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(/^REFERENCE\s+VIEWS/);
    expect(stats.stdout).not.toContain('app_');
    expect(stats.stderr).toMatch(/Newest applications \(the sandbox simulates candidates\):\n {2}ACME-0042 {2}app_[0-9a-f]{16}/);
    const suggested = /^try: (jobs-cli --sandbox event (app_[0-9a-f]{16}) recruiter_view)$/m.exec(stats.stderr);
    expect(suggested, stats.stderr).not.toBeNull();
    const [, command, id] = suggested!;

    // Run it exactly as printed (`jobs` is the built binary here).
    const event = await jobs(command!.split(' ').slice(1), { env });
    expect(event.stdout + event.stderr).toContain(`posted recruiter_view for application ${id}`);
    expect(event.code).toBe(0);

    const after = await jobs(['--sandbox', 'stats', 'ACME-0042'], { env });
    expect(after.stderr).toContain(`${id} (viewed)`);
  });

  it('points at stats when jobs --sandbox event gets an unknown id', async () => {
    const run = await jobs(['--sandbox', 'event', 'app_unknown', 'recruiter_view'], { env: isolatedEnv() });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain("jobs-cli --sandbox stats <reference> lists application ids of the sandbox's adverts");
  });

  it('says nothing extra with --json or --quiet', async () => {
    const env = isolatedEnv();
    expect((await jobs(['--sandbox', 'publish', 'examples/adverts/'], { env })).code).toBe(0);
    for (const flag of ['--json', '--quiet']) {
      const run = await jobs(['--sandbox', 'stats', 'ACME-0042', flag], { env });
      expect(run.code).toBe(0);
      expect(run.stderr + run.stdout).not.toContain('app_');
    }
  });

  it('says nothing about applications against a real service', async () => {
    const live = await liveSandbox();
    expect((await jobs(['publish', 'examples/adverts/'], { env: live.env })).code).toBe(0);
    const run = await jobs(['stats', 'ACME-0042'], { env: live.env });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('app_');
  });
});
