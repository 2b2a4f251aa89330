/**
 * No silent waits: what a user sees on stderr while the client waits for the service (retries, rate
 * limits, slow requests), and that quiet and JSON runs stay clean. A terminal that reports no width
 * gets plain lines, never a live line (issue 9).
 */
import { createServer } from 'node:net';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeTerminal, runWithStderr } from '../../commands/fake-terminal.js';
import { advertYaml, runJobs, SERVICE, serviceEnv, tempFolder } from '../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  nock.disableNetConnect();
});

const STATS = { views: 10, likes: 2, applications: 1, applications_unviewed: 1 };
const ESC = '\x1b';

function notATerminal(): { raw: string; isTTY: false; write(s: string): boolean } {
  const stream = { raw: '', isTTY: false as const, write: (s: string) => ((stream.raw += s), true) };
  return stream;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

describe('a retry says what is waited for, how long, and which attempt comes next', () => {
  it('429 with Retry-After: waits as asked', async () => {
    const scope = nock(SERVICE).get('/jobs/A-1/stats').reply(429, '', { 'Retry-After': '1' }).get('/jobs/A-1/stats').reply(200, STATS);
    const r = await runJobs(['stats', 'A-1'], { env: serviceEnv });
    scope.done();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('GET /jobs/A-1/stats: rate limit (429): waiting 1s, attempt 2 of 6\n');
    expect(r.stdout).toContain('A-1');
  });

  it('503: the backoff wait', async () => {
    const scope = nock(SERVICE).get('/jobs/A-1/stats').reply(503).get('/jobs/A-1/stats').reply(200, STATS);
    const r = await runJobs(['stats', 'A-1', '--retries', '2'], { env: serviceEnv });
    scope.done();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^GET \/jobs\/A-1\/stats: service unavailable \(503\): retrying in \d(\.\d)?s, attempt 2 of 3\n$/);
  });

  it('a request that gets no answer: the timeout, then the retry', async () => {
    const scope = nock(SERVICE).get('/jobs/A-1/stats').delay(400).reply(200, STATS).get('/jobs/A-1/stats').reply(200, STATS);
    const r = await runJobs(['stats', 'A-1', '--timeout', '100ms'], { env: serviceEnv });
    scope.done();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^GET \/jobs\/A-1\/stats: no response within 100ms: retrying in \d(\.\d)?s, attempt 2 of 6\n$/);
  });

  it('a closed port: connection refused, with the address', async () => {
    nock.enableNetConnect('127.0.0.1');
    const port = await closedPort();
    const r = await runJobs(['stats', 'A-1', '--retries', '1'], { env: { JOBS_BASE_URL: `http://127.0.0.1:${port}`, JOBS_TOKEN: 'tok' } });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      new RegExp(`^GET /jobs/A-1/stats: connection refused \\(127\\.0\\.0\\.1:${port}\\): retrying in \\d(\\.\\d)?s, attempt 2 of 2\\n`),
    );
  });

  it('--json and --quiet stay clean: nothing on stderr, one JSON document on stdout', async () => {
    // (stats gives no SARIF: it refuses --output sarif before sending anything.)
    for (const flags of [['--json'], ['-q']]) {
      nock(SERVICE).get('/jobs/A-1/stats').reply(429, '', { 'Retry-After': '0' }).get('/jobs/A-1/stats').reply(200, STATS);
      const r = await runJobs([...flags, 'stats', 'A-1'], { env: serviceEnv });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr, flags.join(' ')).toBe('');
      if (flags[0] === '--json') expect(JSON.parse(r.stdout)).toMatchObject({ stats: [{ reference: 'A-1', ...STATS }] });
    }
  });
});

describe('a slow request on a terminal', () => {
  it('shows a spinner with the request and the seconds, and clears it when the answer comes', async () => {
    const scope = nock(SERVICE).get('/jobs/A-1/stats').delay(1400).reply(200, STATS);
    const terminal = fakeTerminal(80);
    const r = await runWithStderr(['stats', 'A-1'], terminal, { env: serviceEnv });
    scope.done();
    expect(r.code, terminal.raw).toBe(0);
    expect(terminal.raw).toContain('waiting for GET /jobs/A-1/stats (1s)…');
    expect(terminal.screen()).toEqual([]);
    expect(r.stdout).toContain('A-1');
  });

  it('no spinner where stderr is not a terminal, or a terminal without a width', async () => {
    for (const stderr of [notATerminal(), fakeTerminal(0), fakeTerminal(undefined)]) {
      nock(SERVICE).get('/jobs/A-1/stats').delay(1400).reply(200, STATS);
      const r = await runWithStderr(['stats', 'A-1'], stderr, { env: serviceEnv });
      expect(r.code).toBe(0);
      expect(stderr.raw).toBe('');
    }
  });

  it('a wait before a retry goes above the live line, which counts down and then clears', async () => {
    nock(SERVICE).get('/jobs/A-1/stats').reply(429, '', { 'Retry-After': '2' }).get('/jobs/A-1/stats').reply(200, STATS);
    const terminal = fakeTerminal(80);
    const r = await runWithStderr(['stats', 'A-1'], terminal, { env: serviceEnv });
    expect(r.code, terminal.raw).toBe(0);
    expect(terminal.raw).toMatch(/rate limit \(429\): retrying GET \/jobs\/A-1\/stats in [12]s…/);
    expect(terminal.screen()).toEqual(['GET /jobs/A-1/stats: rate limit (429): waiting 2s, attempt 2 of 6']);
  });

  it('in a bulk run, shares the one live line with the progress', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    const scope = nock(SERVICE).post('/jobs').times(2).delay(1400).reply(201);
    const terminal = fakeTerminal(100);
    const r = await runWithStderr(['publish', '.', '--concurrency', '2'], terminal, { cwd: dir, env: serviceEnv });
    scope.done();
    expect(r.code, terminal.raw).toBe(0);
    expect(terminal.raw).toMatch(/publishing 0\/2, 0\.\d\/s · waiting for POST \/jobs \(1s\)… \(\+1 more\)/);
    expect(r.stdout).toBe('✔ created A-1 a.yaml:1\n✔ created B-2 b.yaml:1\n');
    expect(terminal.screen()).toEqual(['✔ 2 adverts: 2 created']);
  });

  it('keeps the live line to one row of a narrow terminal', async () => {
    nock(SERVICE).get('/jobs/A-1/stats').delay(1400).reply(200, STATS);
    const terminal = fakeTerminal(20);
    const r = await runWithStderr(['stats', 'A-1'], terminal, { env: serviceEnv });
    expect(r.code).toBe(0);
    expect(terminal.raw).toContain(' waiting for GET …');
    expect(terminal.raw).not.toContain(`${ESC}[1A`);
  });
});

describe('a terminal that reports no width (script, expect, CI wrappers)', () => {
  it('a bulk publish completes with plain output of bounded size, and no live line', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2'), 'c.yaml': advertYaml('C-3') });
    for (const columns of [0, undefined]) {
      // Answers that take a while, so a live line would have had time to draw.
      const scope = nock(SERVICE).post('/jobs').times(3).delay(300).reply(201);
      const terminal = fakeTerminal(columns, 64_000);
      const r = await runWithStderr(['publish', '.'], terminal, { cwd: dir, env: serviceEnv });
      scope.done();
      expect(r.code, terminal.raw.slice(0, 200)).toBe(0);
      expect(terminal.raw).toBe('✔ 3 adverts: 3 created\n');
    }
  });

  it('a terminal shrunk to no width during a run: the live line stops at once', async () => {
    nock(SERVICE).get('/jobs/A-1/stats').delay(2000).reply(200, STATS);
    const terminal = fakeTerminal(80, 64_000);
    let afterResize: string | undefined;
    // Shrink it once the spinner is drawing frame after frame; what it writes right then is its end.
    const watch = setInterval(() => {
      if (terminal.raw.split('waiting for').length > 3) {
        clearInterval(watch);
        const before = terminal.raw.length;
        terminal.resize(0);
        afterResize = terminal.raw.slice(before);
      }
    }, 10);
    const r = await runWithStderr(['stats', 'A-1'], terminal, { env: serviceEnv });
    clearInterval(watch);
    expect(r.code, terminal.raw.slice(0, 300)).toBe(0);
    // Cleared, cursor shown again: the spinner is gone before it could draw at no width.
    expect(afterResize).toBe(`${ESC}[1G${ESC}[0K${ESC}[?25h`);
    expect(terminal.raw.endsWith(afterResize!)).toBe(true);
    expect(terminal.screen()).toEqual([]);
  });

  it("TERM=dumb (an editor's shell buffer) gets no live line either", async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    const scope = nock(SERVICE).post('/jobs').times(2).delay(300).reply(201);
    const terminal = fakeTerminal(80);
    const r = await runWithStderr(['publish', '.'], terminal, { cwd: dir, env: { ...serviceEnv, TERM: 'dumb' } });
    scope.done();
    expect(r.code).toBe(0);
    expect(terminal.raw).toBe('✔ 2 adverts: 2 created\n');
  });
});
