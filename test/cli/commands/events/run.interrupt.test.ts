import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { JobsClient } from '../../../../src/core/api/client.js';
import type { ResolvedConfig } from '../../../../src/core/config/types.js';
import type { Context } from '../../../../src/cli/context.js';
import { runEvents } from '../../../../src/cli/commands/events/run.js';
import { SERVICE, tempFolder } from '../../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

/** A context whose abort signal the test holds, as Ctrl-C would abort it. */
function context(cwd: string, controller: AbortController, stdin = '', onStdout?: () => void) {
  const out = { stdout: '', stderr: '' };
  const ctx: Context = {
    name: 'jobs',
    io: {
      stdin: (async function* () {
        if (stdin) yield stdin;
      })(),
      stdout: {
        write: (s: string) => {
          out.stdout += s;
          onStdout?.();
        },
      },
      stderr: { write: (s: string) => (out.stderr += s) },
    },
    env: { NO_COLOR: '1' },
    cwd,
    globals: { output: 'human', quiet: false, verbose: false, color: false, input: false, sandbox: false },
    signal: controller.signal,
    config: async () =>
      ({ concurrency: { value: 2, source: { kind: 'default' } }, baseUrl: { value: 'https://jobs.test', source: { kind: 'default' } } }) as ResolvedConfig,
    client: async () => new JobsClient({ baseUrl: SERVICE, token: 'tok', retries: 0 }),
  };
  return { ctx, out };
}

it('on Ctrl-C starts no new posts, lets those in flight finish and journals them (exit 130)', async () => {
  const dir = tempFolder({ 'e.csv': `application_id,kind\n${['a1', 'a2', 'a3', 'a4', 'a5'].map((id) => `${id},recruiter_view`).join('\n')}\n` });
  const controller = new AbortController();
  let received = 0;
  const scope = nock(SERVICE)
    .post(/\/job_applications\/a[12]\/events$/)
    .times(2)
    .reply((_uri, _body, callback) => {
      // Both lanes have sent their request: the user presses Ctrl-C before either is answered.
      if (++received === 2) controller.abort();
      setTimeout(() => callback(null, [200, '']), 30);
    });
  const { ctx, out } = context(dir, controller);
  const code = await runEvents(ctx, 'e.csv', {});
  scope.done();
  expect(code).toBe(130);
  expect(out.stdout).toBe('✔ recruiter_view a1 (e.csv:2)\n✔ recruiter_view a2 (e.csv:3)\n');
  expect(out.stderr).toBe('✖ e.csv: 5 events: 2 posted, 3 not started\n  journal: e.csv.journal\n  interrupted: rerun the same command to post the rest\n');
  const journal = readFileSync(join(dir, 'e.csv.journal'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .map((l) => `${l.application_id} ${l.status}`);
  // a3 to a5 were journaled ahead (planned) while a1 and a2 were in flight; not sent, they say `failed`.
  expect(journal.sort()).toEqual([
    'a1 accepted',
    'a1 sending',
    'a2 accepted',
    'a2 sending',
    'a3 failed',
    'a3 planned',
    'a4 failed',
    'a4 planned',
    'a5 failed',
    'a5 planned',
  ]);
  // A rerun posts exactly the three not started.
  const rest = nock(SERVICE)
    .post('/job_applications/a3/events')
    .reply(200)
    .post('/job_applications/a4/events')
    .reply(200)
    .post('/job_applications/a5/events')
    .reply(200);
  const again = context(dir, new AbortController());
  expect(await runEvents(again.ctx, 'e.csv', {})).toBe(0);
  rest.done();
  expect(again.out.stderr).toBe('✔ e.csv: 5 events: 3 posted, 2 skipped as already done\n  journal: e.csv.journal\n');
});

const manyEvents = (count: number) => Array.from({ length: count }, (_, i) => `{"application_id":"app-${i}","kind":"recruiter_view"}\n`).join('');

it('a Ctrl-C while stdin (read whole) is checked stops the check: nothing journaled or sent', async () => {
  const dir = tempFolder({});
  const controller = new AbortController();
  // Aborted at the second turn of the event loop: the check of 20,000 events must let it turn as it goes.
  setImmediate(() => setImmediate(() => controller.abort()));
  const { ctx } = context(dir, controller, manyEvents(20_000));
  await expect(runEvents(ctx, '-', { format: 'ndjson', journal: 'j.journal' })).rejects.toMatchObject({
    name: 'CancelledError',
    message: 'interrupted while checking <stdin>; nothing was sent',
  });
  expect(existsSync(join(dir, 'j.journal'))).toBe(false);
});

it('a Ctrl-C during a dry run of stdin (read whole) stops it (exit 130), counting what it did not get to', async () => {
  const dir = tempFolder({});
  const controller = new AbortController();
  // Aborted at the turn after the first output: the dry run must let the event loop turn as it goes.
  let armed = false;
  const { ctx, out } = context(dir, controller, manyEvents(20_000), () => {
    if (!armed) setImmediate(() => controller.abort());
    armed = true;
  });
  expect(await runEvents(ctx, '-', { format: 'ndjson', dryRun: true })).toBe(130);
  const summary = /^dry run: <stdin>: 20000 events: (\d+) would be posted, (\d+) not started; nothing was sent\n$/.exec(out.stderr);
  expect(summary, out.stderr).not.toBeNull();
  expect(Number(summary![1]) + Number(summary![2])).toBe(20_000);
  expect(Number(summary![2])).toBeGreaterThan(0);
});
