/**
 * `jobs events` against the sandbox: the sandbox's record of accepted events is the oracle. A run
 * cut short and a run under random 5xx never post an event twice.
 */
import { writeFileSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobs } from './helpers.js';
import { liveSandbox, type LiveSandbox } from './sandbox.js';
import { tempDir } from '../support/temp-dirs.js';

async function applications(s: LiveSandbox, count: number): Promise<string[]> {
  const created = await jobs(['publish', '-'], { env: s.env, input: advert('EV-1') });
  expect(created.code).toBe(0);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await fetch(`${s.baseUrl}/_sandbox/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"reference":"EV-1"}',
    });
    ids.push(((await r.json()) as { id: string }).id);
  }
  return ids;
}

const advert = (reference: string) =>
  `reference: ${reference}\ntitle: T\norganization_name: O\ncompany_description: C\njob_description: J\ncontract_id: 1\nsalary_id: 1\nsalary_text: S\nindustry_id: 1\ndepartment_id: 1\nseniority: 0\neducation: 0\nlocation:\n  country: FR\n  city: Lyon\nrecruiter:\n  email: r@example.com\n`;

describe('jobs events against the sandbox', () => {
  it('posts a CSV of events once; a rerun posts nothing; the journal records them', async () => {
    const s = await liveSandbox();
    const ids = await applications(s, 3);
    const dir = tempDir('jobs-events-');
    const csv = ['application_id,kind,data', `${ids[0]},recruiter_view,`, `${ids[1]},recruiter_like,"{""step"":""call""}"`, `${ids[2]},recruiter_reject,`].join(
      '\n',
    );
    writeFileSync(join(dir, 'events.csv'), `${csv}\n`);
    const first = await jobs(['events', 'events.csv'], { cwd: dir, env: s.env });
    expect(first.code).toBe(0);
    expect(s.sandbox.state().events.map((e) => [e.applicationId, e.kind, e.data ?? null])).toEqual([
      [ids[0], 'recruiter_view', null],
      [ids[1], 'recruiter_like', { step: 'call' }],
      [ids[2], 'recruiter_reject', null],
    ]);
    const again = await jobs(['events', 'events.csv'], { cwd: dir, env: s.env });
    expect(again.code).toBe(0);
    expect(s.sandbox.state().events).toHaveLength(3);
    const journal = readFileSync(join(dir, 'events.csv.journal'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(journal.filter((l) => l.status === 'accepted').map((l) => [l.application_id, l.service])).toEqual(ids.map((id) => [id, s.baseUrl]));
    const stats = JSON.parse((await jobs(['stats', 'EV-1', '--json'], { env: s.env })).stdout).stats[0];
    expect(stats.applications_unviewed).toBe(stats.applications - 3);
  });

  it('reports bad lines with their numbers and sends nothing (exit 3)', async () => {
    const s = await liveSandbox();
    const dir = tempDir('jobs-events-');
    writeFileSync(
      join(dir, 'e.ndjson'),
      '{"application_id":"a1","kind":"recruiter_view"}\n{"application_id":"a2","kind":"recruiter_hug"}\n{"kind":"recruiter_like"}\n',
    );
    const r = await jobs(['events', 'e.ndjson'], { cwd: dir, env: s.env });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/e\.ndjson:2:\d+: kind: /);
    expect(r.stdout).toContain('e.ndjson:3:1: application_id: is missing (required)');
    expect(s.log).toEqual([]);
  });

  it('answers lost after the service acted are held, never posted twice', async () => {
    const s = await liveSandbox();
    const ids = await applications(s, 24);
    // In front of the sandbox: every 4th request is forwarded but answered 500 (the event was
    // recorded, the answer lost); every 5th is refused with 503 before it reaches the sandbox.
    let n = 0;
    let faulty = true;
    const proxy = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      n++;
      if (faulty && n % 5 === 0) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end('{"errors":{"base":["unavailable"]}}');
        return;
      }
      const upstream = await fetch(`${s.baseUrl}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      await upstream.arrayBuffer();
      if (faulty && n % 4 === 0) res.writeHead(500, { 'content-type': 'application/json' }).end('{"errors":{"base":["internal"]}}');
      else res.writeHead(upstream.status).end();
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    try {
      const dir = tempDir('jobs-events-');
      writeFileSync(join(dir, 'e.ndjson'), ids.map((id) => JSON.stringify({ application_id: id, kind: 'recruiter_like' })).join('\n'));
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const first = await jobs(['events', 'e.ndjson', '--concurrency', '1'], { cwd: dir, env: { ...s.env, JOBS_BASE_URL: url } });
      expect(first.code).toBe(7);
      expect(first.stderr).toMatch(/\d+ uncertain/);
      // The faults are over: only what is left is posted; uncertain ones stay held.
      faulty = false;
      const second = await jobs(['events', 'e.ndjson'], { cwd: dir, env: { ...s.env, JOBS_BASE_URL: url } });
      expect(second.stderr).toMatch(/\d+ held/);
      const perApplication = new Map<string, number>();
      for (const e of s.sandbox.state().events) perApplication.set(e.applicationId, (perApplication.get(e.applicationId) ?? 0) + 1);
      expect([...perApplication.values()].every((count) => count === 1)).toBe(true);
      expect(perApplication.size).toBe(24);
    } finally {
      await new Promise((done) => proxy.close(done));
    }
  });
});
