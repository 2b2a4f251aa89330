/**
 * A sync records the hash of each advert's file text (with the settings that shape its payload) and
 * finds an advert unchanged from that alone. These runs of the built binary against a sandbox on
 * 127.0.0.1 check that the shortcut never hides a change: an edited comment sends nothing, a changed
 * default in the config is sent although no advert file changed, a state from before text hashes is
 * read as it is, and a folder large enough for worker threads plans exactly as a small one.
 */
import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAdverts } from '../../bench/generate.mjs';
import { jobs, ROOT } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { tempDir } from '../support/temp-dirs.js';

type Stored = { file: string; document: number; hash: string; text_hash?: string; fields: string; published_at: string };
type StateJson = {
  version: number;
  services: Record<string, { fields: string[]; adverts: Record<string, Stored> }>;
  check?: { bytes: string; services: Record<string, string> };
};
const readState = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as StateJson;
const records = (path: string, baseUrl: string) => readState(path).services[baseUrl]!.adverts;

function copyExamples(): string {
  const dir = tempDir('jobs-text-hash-');
  cpSync(join(ROOT, 'examples/adverts'), dir, { recursive: true });
  return dir;
}

const edit = (path: string, from: string | RegExp, to: string) => {
  const before = readFileSync(path, 'utf8');
  const after = before.replace(from, to);
  expect(after).not.toBe(before);
  writeFileSync(path, after);
};

/** The requests a sandbox answered, without their timings: `PUT /jobs/ACME-0042 200`. */
const requests = (log: string[]) => log.map((l) => l.split(' ').slice(0, 3).join(' '));

/** The state's text bytes and identity: the same after a run that recorded nothing. */
const snapshot = (path: string) => {
  const { mtimeMs, ino, size } = statSync(path);
  return { text: readFileSync(path, 'utf8'), mtimeMs, ino, size };
};

describe('text hashes in the sync state', () => {
  it('are recorded per advert; an edited comment sends nothing and leaves the state as it is; the next recorded change records the new text', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    const state = join(dir, '.jobs-state');
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    const first = records(state, s.baseUrl);
    expect(Object.keys(first)).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);
    for (const r of Object.values(first)) expect(r.text_hash).toMatch(/^[0-9a-f]{32}$/);
    // Two documents of one file share its text.
    expect(first['ACME-0043']!.text_hash).toBe(first['ACME-0044']!.text_hash);
    expect(first['ACME-0042']!.text_hash).not.toBe(first['ACME-0043']!.text_hash);

    s.log.length = 0;
    edit(join(dir, 'backend-engineer.yaml'), /^/, '# Reviewed by the hiring team.\n');
    const before = snapshot(state);
    const quiet = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(quiet.stderr).toContain('✔ in sync: 3 unchanged');
    expect(quiet.code).toBe(0);
    expect(s.log).toEqual([]);
    expect(snapshot(state)).toEqual(before);

    // A real change elsewhere writes the state: the commented file's new text is recorded with it.
    edit(join(dir, 'support-specialists.yaml'), 'seniority: 1', 'seniority: 2');
    const sent = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(sent.stderr).toContain('✔ in sync: 1 updated, 2 unchanged');
    expect(requests(s.log)).toEqual(['PUT /jobs/ACME-0043 200']);
    const after = records(state, s.baseUrl);
    expect(after['ACME-0042']!.text_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(after['ACME-0042']!.text_hash).not.toBe(first['ACME-0042']!.text_hash);
    expect(after['ACME-0042']!.hash).toBe(first['ACME-0042']!.hash);
    expect(after['ACME-0043']!.text_hash).not.toBe(first['ACME-0043']!.text_hash);
    expect(after['ACME-0044']!.text_hash).toBe(after['ACME-0043']!.text_hash);

    // And with every text recorded, the next run finds nothing to do.
    s.log.length = 0;
    const settled = snapshot(state);
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).stderr).toContain('✔ in sync: 3 unchanged');
    expect(s.log).toEqual([]);
    expect(snapshot(state)).toEqual(settled);
  });

  it('do not hide a payload changed by the config: a new default is sent to every advert, though no file changed', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    s.log.length = 0;
    writeFileSync(join(dir, '.jobsrc.yaml'), 'defaults:\n  apply_email: jobs@acme.example\n');
    const plan = await jobs(['sync', '.', '--dry-run'], { cwd: dir, env: s.env });
    expect(plan.stdout).toBe(
      '~ ACME-0042  backend-engineer.yaml  (apply_email)\n~ ACME-0043  support-specialists.yaml  (apply_email)\n~ ACME-0044  support-specialists.yaml  (apply_email)\n',
    );
    const sent = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(sent.stderr).toContain('✔ in sync: 3 updated');
    expect(requests(s.log).sort()).toEqual(['PUT /jobs/ACME-0042 200', 'PUT /jobs/ACME-0043 200', 'PUT /jobs/ACME-0044 200']);
  });

  it('are not needed: a state written before them is read as it is (nothing sent, file untouched), and they are recorded with the next change', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    const state = join(dir, '.jobs-state');
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    const text = readFileSync(state, 'utf8');
    writeFileSync(state, text.replace(/"text_hash":"[0-9a-f]+",/g, ''));
    expect(readFileSync(state, 'utf8')).not.toContain('text_hash');
    s.log.length = 0;
    const before = snapshot(state);
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).stderr).toContain('✔ in sync: 3 unchanged');
    expect(s.log).toEqual([]);
    expect(snapshot(state)).toEqual(before);

    edit(join(dir, 'backend-engineer.yaml'), 'seniority: 3', 'seniority: 4');
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).stderr).toContain('✔ in sync: 1 updated, 2 unchanged');
    // Written again, the state records every advert's text, the unchanged ones' too, as the first sync did.
    expect(readState(state).services).toEqual(
      JSON.parse(text.replace(/"ACME-0042": .*\n/, readFileSync(state, 'utf8').match(/"ACME-0042": .*\n/)![0])).services,
    );
    expect(records(state, s.baseUrl)['ACME-0042']!.hash).not.toBe(JSON.parse(text).services[s.baseUrl].adverts['ACME-0042'].hash);
  });

  it('plan a folder checked on worker threads as they plan a small one: new, edited, commented and untouched files, with and without text hashes', async () => {
    const sandbox = await liveSandbox();
    // Workers from 1,000 files whatever the cores (on two, a run this small would keep to one thread).
    const s = { ...sandbox, env: { ...sandbox.env, JOBS_WORKERS: '1' } };
    const dir = generateAdverts(join(tempDir('jobs-text-hash-many-'), 'adverts'), 1200, { realistic: true });
    const state = join(dir, '.jobs-state');
    const first = await jobs(['sync', dir, '-q'], { env: s.env, timeoutMs: 120_000 });
    expect(first.stderr).toBe('✔ in sync: 1200 created, 0 unchanged\n');
    expect(first.code).toBe(0);
    expect(s.count(/^POST \/jobs 201/)).toBe(1200);
    const recorded = records(state, s.baseUrl);
    expect(Object.values(recorded).filter((r) => /^[0-9a-f]{32}$/.test(r.text_hash ?? ''))).toHaveLength(1200);

    const file = (i: number) => join(dir, `advert-${String(i).padStart(7, '0')}.yaml`);
    edit(file(3), /^/, '# a comment only\n');
    edit(file(600), /^title: (.*)$/m, 'title: $1 (senior)');
    edit(file(1150), /^title: (.*)$/m, 'title: $1 (lead)');
    writeFileSync(join(dir, 'extra.yaml'), readFileSync(file(0), 'utf8').replace(/REAL-0000000/g, 'REAL-EXTRA'));
    const dry = await jobs(['sync', dir, '--dry-run'], { env: s.env, timeoutMs: 60_000 });
    expect(dry.stdout).toBe('~ REAL-0000600  advert-0000600.yaml  (title)\n~ REAL-0001150  advert-0001150.yaml  (title)\n+ REAL-EXTRA  extra.yaml\n');
    expect(dry.stderr).toBe('Plan: 1 to create, 2 to update, 0 to delete, 1198 unchanged. (dry run: nothing was sent)\n');

    // The same plan from a state without text hashes (an earlier release's): content hashes decide.
    const withHashes = readFileSync(state, 'utf8');
    writeFileSync(state, withHashes.replace(/"text_hash":"[0-9a-f]+",/g, ''));
    const old = await jobs(['sync', dir, '--dry-run'], { env: s.env, timeoutMs: 60_000 });
    expect(old.stdout).toBe(dry.stdout);
    expect(old.stderr).toBe(dry.stderr);
    writeFileSync(state, withHashes);

    s.log.length = 0;
    const sent = await jobs(['sync', dir], { env: s.env, timeoutMs: 60_000 });
    expect(sent.stderr).toContain('✔ in sync: 2 updated, 1 created, 1198 unchanged');
    expect(requests(s.log).sort()).toEqual(['POST /jobs 201', 'PUT /jobs/REAL-0000600 200', 'PUT /jobs/REAL-0001150 200']);
    const after = records(state, s.baseUrl);
    expect(after['REAL-0000003']!.text_hash).not.toBe(recorded['REAL-0000003']!.text_hash);
    expect(after['REAL-0000003']!.hash).toBe(recorded['REAL-0000003']!.hash);
    expect(after['REAL-0000004']).toEqual(recorded['REAL-0000004']);

    s.log.length = 0;
    const before = snapshot(state);
    expect((await jobs(['sync', dir, '-q'], { env: s.env, timeoutMs: 60_000 })).code).toBe(0);
    expect(s.log).toEqual([]);
    expect(snapshot(state)).toEqual(before);
  });

  it('a state edited by hand is read in full: a record removed to have its advert published again is published again', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    const state = join(dir, '.jobs-state');
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    const text = readFileSync(state, 'utf8');
    // Every record has a text hash: the service is summed up in the last line.
    expect(Object.keys(readState(state).check!.services)).toEqual([s.baseUrl]);
    // Removed by hand, as a user does to have an advert published again (the line before it loses its comma).
    writeFileSync(state, text.replace(/,\n\s+"ACME-0044": .*\n/, '\n'));
    expect(Object.keys(records(state, s.baseUrl))).toEqual(['ACME-0042', 'ACME-0043']);
    s.log.length = 0;
    const r = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(r.stderr).toContain('✔ in sync: 1 adopted, 2 unchanged');
    expect(requests(s.log)).toEqual(['POST /jobs 422', 'PUT /jobs/ACME-0044 200']);
    expect(Object.keys(records(state, s.baseUrl))).toEqual(['ACME-0042', 'ACME-0043', 'ACME-0044']);
  });

  it("the folder's own errors come first: before a state that cannot be read, and before a lock another sync holds", async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    const state = join(dir, '.jobs-state');
    writeFileSync(join(dir, 'broken.yaml'), 'reference: ACME-0099\ntitle: [unclosed\n');
    writeFileSync(state, '{"version": 2, "services": [');
    const broken = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(broken.code).toBe(3);
    expect(broken.stdout).toMatch(/broken\.yaml:\d+:\d+: /);
    writeFileSync(state, '{"version": 2, "services": {}}\n');
    writeFileSync(`${state}.lock`, JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), started_at: 'now' }));
    const locked = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(locked.code).toBe(3);
    expect(locked.stdout).toMatch(/broken\.yaml:\d+:\d+: /);
    // With the folder fixed, each is said.
    writeFileSync(join(dir, 'broken.yaml'), readFileSync(join(dir, 'backend-engineer.yaml'), 'utf8').replace('ACME-0042', 'ACME-0099'));
    const held = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(held.code).toBe(2);
    expect(held.stderr).toContain('another sync holds the lock');
    writeFileSync(state, '{"version": 2, "services": [');
    const unreadable = await jobs(['sync', '.', '--unlock'], { cwd: dir, env: s.env });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('the sync state is not valid JSON');
    expect(s.log).toEqual([]);
  });

  it('--force sends every advert again, and records their texts', async () => {
    const s = await liveSandbox();
    const dir = copyExamples();
    const state = join(dir, '.jobs-state');
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    const first = records(state, s.baseUrl);
    s.log.length = 0;
    const forced = await jobs(['sync', '.', '--force'], { cwd: dir, env: s.env });
    expect(forced.stderr).toContain('✔ in sync: 3 updated');
    expect(requests(s.log).sort()).toEqual(['PUT /jobs/ACME-0042 200', 'PUT /jobs/ACME-0043 200', 'PUT /jobs/ACME-0044 200']);
    const after = records(state, s.baseUrl);
    for (const reference of Object.keys(first)) {
      expect(after[reference]!.hash).toBe(first[reference]!.hash);
      expect(after[reference]!.text_hash).toBe(first[reference]!.text_hash);
    }
  });
});
