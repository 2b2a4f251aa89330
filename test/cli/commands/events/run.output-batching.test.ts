import nock from 'nock';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { JobsClient } from '../../../../src/core/api/client.js';
import type { ResolvedConfig } from '../../../../src/core/config/types.js';
import type { Context } from '../../../../src/cli/context.js';
import { runEvents } from '../../../../src/cli/commands/events/run.js';
import { SERVICE, tempFolder } from '../../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

it('writes the result lines of a run in few writes, all of them, in order before the JSON summary', async () => {
  const ids = Array.from({ length: 64 }, (_, i) => `a${i + 1}`);
  const dir = tempFolder({ 'e.ndjson': `${ids.map((id) => JSON.stringify({ application_id: id, kind: 'recruiter_view' })).join('\n')}\n` });
  const writes: string[] = [];
  const ctx: Context = {
    name: 'jobs',
    io: { stdin: (async function* () {})(), stdout: { write: (s: string) => writes.push(s) }, stderr: { write: () => true } },
    env: { NO_COLOR: '1' },
    cwd: dir,
    globals: { output: 'json', quiet: false, verbose: false, color: false, input: false, sandbox: false },
    signal: new AbortController().signal,
    config: async () =>
      ({ concurrency: { value: 8, source: { kind: 'default' } }, baseUrl: { value: SERVICE, source: { kind: 'default' } } }) as ResolvedConfig,
    client: async () => new JobsClient({ baseUrl: SERVICE, token: 'tok', retries: 0 }),
  };
  const scope = nock(SERVICE)
    .post(/\/job_applications\/a\d+\/events$/)
    .times(ids.length)
    .reply(200);
  expect(await runEvents(ctx, 'e.ndjson', { concurrency: 8 })).toBe(0);
  scope.done();
  const lines = writes
    .join('')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { application_id?: string; status?: string; summary?: { posted: number } });
  expect(
    lines
      .slice(0, -1)
      .map((l) => `${l.application_id} ${l.status}`)
      .sort(),
  ).toEqual(ids.map((id) => `${id} posted`).sort());
  expect(lines.at(-1)!.summary!.posted).toBe(64);
  // A write per result would be 65; results that arrive in the same turn of the event loop share one.
  expect(writes.length).toBeLessThanOrEqual(ids.length / 2);
});
