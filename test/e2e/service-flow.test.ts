import { writeFileSync, cpSync, rmSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobs, ROOT } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { tempDir } from '../support/temp-dirs.js';

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

function copyExamples(): string {
  const dir = tempDir('jobs-flow-');
  cpSync(join(ROOT, 'examples/adverts'), dir, { recursive: true });
  return dir;
}

describe('the built binary against a sandbox on 127.0.0.1', () => {
  it('publishes, updates with --set, reads stats, posts an event, and deletes', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    const published = await jobs(['publish', '.'], { cwd: dir, env: s.env });
    expect(published.code).toBe(0);
    // Sent 4 at a time: lines come in the order the answers do.
    expect(published.stdout.trim().split('\n').sort()).toEqual([
      '✔ created ACME-0042 backend-engineer.yaml:3',
      '✔ created ACME-0043 support-specialists.yaml:3',
      '✔ created ACME-0044 support-specialists.yaml:23',
    ]);

    const again = await jobs(['publish', 'backend-engineer.yaml'], { cwd: dir, env: s.env });
    expect(again.stdout).toBe('✔ updated ACME-0042 backend-engineer.yaml:3\n');
    expect(s.count(/^POST \/jobs 422/)).toBe(1);
    expect(s.count(/^PUT \/jobs\/ACME-0042 200/)).toBe(1);

    const updated = await jobs(['update', 'ACME-0042', '--set', 'location.city=Bergen', '--set', 'seniority=5'], { env: s.env });
    expect(updated.code).toBe(0);
    const stored = s.sandbox.state().adverts.find((a) => a.reference === 'ACME-0042')!;
    expect(stored.advert.location).toEqual({ country: 'NO', city: 'Bergen' });
    expect(stored.advert.seniority).toBe(5);

    const stats = await jobs(['stats', 'ACME-0042', '--json'], { env: s.env });
    expect(stats.code).toBe(0);
    const row = JSON.parse(stats.stdout).stats[0];
    expect(Object.keys(row)).toEqual([
      'reference',
      'views',
      'likes',
      'applications',
      'applications_unviewed',
      'like_rate',
      'application_rate',
      'change',
      'needs_attention',
    ]);

    const app = await fetch(`${s.baseUrl}/_sandbox/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference: 'ACME-0042' }),
    });
    const { id } = (await app.json()) as { id: string };
    const event = await jobs(['event', id, 'recruiter_like', '--data', '{"step":"interview"}'], { env: s.env });
    expect(event.code).toBe(0);
    expect(s.sandbox.state().events).toMatchObject([{ applicationId: id, kind: 'recruiter_like', data: { step: 'interview' }, counted: true }]);
    const unknown = await jobs(['event', 'no-such-app', 'recruiter_view'], { env: s.env });
    expect(unknown.code).toBe(5);

    const deleted = await jobs(['delete', 'ACME-0042', '--yes'], { env: s.env });
    expect(deleted.code).toBe(0);
    const gone = await jobs(['stats', 'ACME-0042'], { env: s.env });
    expect(gone.code).toBe(5);
    expect(gone.stderr).toContain('not found (404)');
  });

  it('exits 4 with a wrong token, 7 when the service is unreachable', async () => {
    const s = await liveSandbox();
    const bad = await jobs(['stats', 'X'], { env: { ...s.env, JOBS_TOKEN: 'wrong' } });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('unauthorized (401)');
    expect(bad.stderr).not.toContain('wrong');
    const port = await closedPort();
    const down = await jobs(['stats', 'X', '--retries', '1'], { env: { ...s.env, JOBS_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(down.code).toBe(7);
    expect(down.stderr).toContain(`cannot reach http://127.0.0.1:${port}/ (connection refused) after 1 retry`);
  });

  it('syncs a folder: plan, create, no-op, update, prune, with the state as the record', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    const plan = await jobs(['sync', '.', '--dry-run', '--detailed-exitcode'], { cwd: dir, env: s.env });
    expect(plan.code).toBe(8);
    expect(plan.stdout).toBe('+ ACME-0042  backend-engineer.yaml\n+ ACME-0043  support-specialists.yaml\n+ ACME-0044  support-specialists.yaml\n');
    expect(s.log).toEqual([]);

    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    const state = JSON.parse(readFileSync(join(dir, '.jobs-state'), 'utf8'));
    expect(state.version).toBe(2);
    expect(Object.keys(state.services[s.baseUrl].adverts).sort()).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);

    const before = s.log.length;
    const noop = await jobs(['sync', '.', '--dry-run', '--detailed-exitcode'], { cwd: dir, env: s.env });
    expect(noop.code).toBe(0);
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).stderr).toContain('✔ in sync: 3 unchanged');
    expect(s.log.length).toBe(before);

    writeFileSync(join(dir, 'backend-engineer.yaml'), readFileSync(join(dir, 'backend-engineer.yaml'), 'utf8').replace('seniority: 3', 'seniority: 4'));
    rmSync(join(dir, 'support-specialists.yaml'));
    const orphans = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(orphans.stdout).toContain('~ ACME-0042  backend-engineer.yaml  (seniority)');
    expect(orphans.stdout).toContain('? ACME-0043  support-specialists.yaml  (gone from the folder; left on the service: --prune deletes it)');
    expect(s.count(/^DELETE/)).toBe(0);
    // No terminal (CI): a plan that deletes needs --yes, or nothing at all is sent (exit 2), as delete does.
    const sent = s.log.length;
    const refused = await jobs(['sync', '.', '--prune'], { cwd: dir, env: s.env });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stdout).toContain('- ACME-0043  support-specialists.yaml  (gone from the folder)');
    expect(refused.stderr).toContain('refusing to delete 2 adverts without confirmation; nothing was sent');
    expect(refused.stderr).toContain('pass --yes to delete them (sync --prune --yes)');
    expect(s.log.length).toBe(sent);
    const pruned = await jobs(['sync', '.', '--prune', '--yes'], { cwd: dir, env: s.env });
    expect(pruned.code).toBe(0);
    expect(s.count(/^DELETE \/jobs\/ACME-004[34] 200/)).toBe(2);
    expect(s.sandbox.state().adverts.map((a) => a.reference)).toEqual(['ACME-0042']);
  });

  it('adopts adverts when the state is lost, without duplicates', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    rmSync(join(dir, '.jobs-state'));
    const r = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('3 adopted');
    expect(s.count(/^POST \/jobs 201/)).toBe(3);
    expect(s.sandbox.state().adverts).toHaveLength(3);
  });

  it('stops with exit 3 before sending when any advert is invalid or references repeat', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    cpSync(join(dir, 'backend-engineer.yaml'), join(dir, 'copy.yaml'));
    const r = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('reference "ACME-0042" is already used by backend-engineer.yaml:3:12');
    expect(s.log).toEqual([]);
  });

  it('refuses a second sync of the same state while one holds the lock', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    writeFileSync(join(dir, '.jobs-state.lock'), JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), started_at: 'now' }));
    const r = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('another sync holds the lock on this state');
    expect(r.stderr).toContain('--unlock');
    const stale = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(stale.code).toBe(2);
    const unlocked = await jobs(['sync', '.', '--unlock'], { cwd: dir, env: s.env });
    expect(unlocked.code).toBe(0);
    expect(unlocked.stderr).toContain('removing the lock (--unlock)');
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    writeFileSync(join(dir, '.jobs-state.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), started_at: 'then' }));
    const r = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('removing a stale lock');
  });

  it('stats --all reads every advert of the sync state', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    await jobs(['sync', '.'], { cwd: dir, env: s.env });
    const r = await jobs(['stats', '--all', '--state', join(dir, '.jobs-state'), '--json'], { env: s.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).stats.map((x: { reference: string }) => x.reference)).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);
  });
});
