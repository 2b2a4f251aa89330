import nock from 'nock';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execute } from '../../src/cli/program.js';
import { fakeTerminal, runWithStderr } from '../commands/fake-terminal.js';
import { advertYaml, SERVICE, tempFolder } from '../commands/harness.js';
import { tempDir } from '../support/temp-dirs.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const STATS = { views: 10, likes: 2, applications: 1, applications_unviewed: 1 };

/** A terminal: stdin and stderr are TTYs; each answer is typed once the previous prompt is up. */
async function onTerminal(argv: string[], answers: string[], env: Record<string, string>, home = tempDir('jobs-reauth-')) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  let stdout = '';
  let stderr = '';
  const pending = [...answers];
  const stderrStream = {
    isTTY: true,
    write(s: string) {
      stderr += s;
      // A prompt ends with ': ' or '] ': answer it, as a person would.
      if (/(: |\] )$/.test(s) && pending.length > 0) {
        const answer = pending.shift()!;
        setTimeout(() => stdin.write(answer), 10);
      }
      return true;
    },
  };
  const code = await execute(argv, {
    io: { stdin, stdout: { write: (s: string) => ((stdout += s), true), isTTY: false }, stderr: stderrStream },
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1', ...env },
    cwd: home,
    handleSignals: false,
  });
  return { code, stdout, stderr, home };
}

describe('a 401 on a terminal', () => {
  it('asks for another token, repeats the request with it, and offers to store it (0600)', async () => {
    const scope = nock(SERVICE)
      .get('/jobs/A-1/stats')
      .matchHeader('authorization', 'Bearer old_token')
      .reply(401, { errors: { base: ['unauthorized'] } })
      .get('/jobs/A-1/stats')
      .matchHeader('authorization', 'Bearer fresh_token')
      .reply(200, STATS);
    const r = await onTerminal(['stats', 'A-1'], ['fresh_token\r', 'y\r'], { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'old_token' });
    expect(r.code, r.stderr).toBe(0);
    scope.done();
    expect(r.stdout).toContain('A-1');
    expect(r.stderr).toContain('The service refused the token (401 unauthorized)');
    // JOBS_TOKEN comes before the store: the user is told before deciding.
    const note = r.stderr.indexOf('Note: JOBS_TOKEN is set and will still win over a stored token; run `unset JOBS_TOKEN` for the stored token to be used.\n');
    expect(note, r.stderr).toBeGreaterThan(0);
    expect(r.stderr.indexOf('Store it for next time')).toBeGreaterThan(note);
    expect(r.stderr).not.toContain('fresh_token');
    const store = join(r.home, 'config', 'jobs', 'credentials.json');
    expect(JSON.parse(readFileSync(store, 'utf8')).profiles.default.token).toBe('fresh_token');
    expect(statSync(store).mode & 0o777).toBe(0o600);
  });

  it('names --token-file as what still wins over the stored token', async () => {
    const home = tempDir('jobs-token-file-');
    writeFileSync(join(home, 'token'), 'old_token\n');
    nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(401, { errors: { base: ['unauthorized'] } })
      .get('/jobs/A-1/stats')
      .reply(200, STATS);
    const r = await onTerminal(['--token-file', join(home, 'token'), 'stats', 'A-1'], ['fresh_token\r', 'n\r'], { JOBS_BASE_URL: SERVICE });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Note: --token-file will still win over a stored token; leave it out for the stored token to be used.');
  });

  it('says nothing of precedence when the refused token was the stored one', async () => {
    const first = await onTerminal(['login'], ['old_token\r'], { JOBS_BASE_URL: SERVICE });
    expect(first.code, first.stderr).toBe(0);
    nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(401, { errors: { base: ['unauthorized'] } })
      .get('/jobs/A-1/stats')
      .reply(200, STATS);
    const r = await onTerminal(['stats', 'A-1'], ['fresh_token\r', 'y\r'], { JOBS_BASE_URL: SERVICE }, first.home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Store it for next time');
    expect(r.stderr).not.toContain('Note:');
  });

  it('without a terminal, or with --no-input, the 401 stands: exit 4, nothing asked', async () => {
    nock(SERVICE)
      .get('/jobs/A-1/stats')
      .reply(401, { errors: { base: ['unauthorized'] } });
    const r = await onTerminal(['--no-input', 'stats', 'A-1'], [], { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'old_token' });
    expect(r.code).toBe(4);
    expect(r.stderr).not.toContain('Enter another token');
  });
});

describe('a 401 in a bulk run on a terminal', () => {
  it('the live progress line keeps off the questions until they are answered', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    const scope = nock(SERVICE)
      .post('/jobs')
      .matchHeader('authorization', 'Bearer old_token')
      .reply(401, { errors: { base: ['unauthorized'] } })
      .post('/jobs')
      .times(2)
      .matchHeader('authorization', 'Bearer fresh_token')
      .reply(201);
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const terminal = fakeTerminal(80);
    const write = terminal.write;
    const answers = ['fresh_token\r', 'n\r'];
    // What is on the screen when each answer is typed, a while after its question appeared.
    const seen: string[] = [];
    terminal.write = (s: string) => {
      const written = write(s);
      if (/(: |\] )$/.test(s) && answers.length > 0) {
        const answer = answers.shift()!;
        setTimeout(() => {
          seen.push(terminal.screen().at(-1) ?? '');
          stdin.write(answer);
        }, 500);
      }
      return written;
    };
    const r = await runWithStderr(['publish', '.', '--concurrency', '1'], terminal, {
      cwd: dir,
      env: { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'old_token' },
      stdin,
    });
    scope.done();
    expect(r.code, terminal.raw).toBe(0);
    expect(terminal.raw).toContain('publishing 0/2');
    expect(seen).toEqual([
      'The service refused the token (401 unauthorized). Enter another token (empty to give up):',
      'The new token worked. Store it for next time (in the OS keyring, or a file only you can read)? [y/N]',
    ]);
  });
});

describe('delete on a terminal', () => {
  const env = { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' };
  it('asks first, and deletes on yes', async () => {
    const scope = nock(SERVICE).delete('/jobs/A-1').reply(200);
    const r = await onTerminal(['delete', 'A-1'], ['y\r'], env);
    scope.done();
    expect(r.stderr).toContain('Delete advert A-1? This cannot be undone. [y/N] ');
    expect(r.code).toBe(0);
  });
  it('sends nothing on no', async () => {
    const r = await onTerminal(['delete', 'A-1'], ['n\r'], env);
    expect(r.stderr).toContain('nothing was deleted');
    // Declining is its own outcome (9), not an interruption (130).
    expect(r.code).toBe(9);
  });
});

describe('sync --prune on a terminal', () => {
  const env = { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' };
  /** A folder synced once (A-1, B-2), then B-2's file removed: the next --prune plan deletes B-2. */
  async function syncedThenRemoved(): Promise<string> {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1'), 'b.yaml': advertYaml('B-2') });
    const scope = nock(SERVICE).post('/jobs').times(2).reply(201);
    const first = await onTerminal(['sync', dir], [], env);
    expect(first.code, first.stderr).toBe(0);
    scope.done();
    rmSync(join(dir, 'b.yaml'));
    return dir;
  }

  it('shows the deletions and asks before sending anything; no sends nothing (exit 9)', async () => {
    const dir = await syncedThenRemoved();
    // nock is set to refuse any connection: a request would fail the run with another code.
    const r = await onTerminal(['sync', dir, '--prune'], ['n\r'], env);
    expect(r.stdout).toContain('- B-2  b.yaml  (gone from the folder)');
    expect(r.stderr).toContain('Delete 1 advert from the service (marked - above)? This cannot be undone. [y/N] ');
    expect(r.stderr).toContain('nothing was sent: the plan was not carried out');
    expect(r.code, r.stderr).toBe(9);
    expect(nock.pendingMocks()).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, '.jobs-state'), 'utf8')).services[SERVICE].adverts).toHaveProperty('B-2');
  });

  it('deletes on yes', async () => {
    const dir = await syncedThenRemoved();
    const scope = nock(SERVICE).delete('/jobs/B-2').reply(200);
    const r = await onTerminal(['sync', dir, '--prune'], ['y\r'], env);
    scope.done();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('[y/N] ');
  });

  it('--yes deletes without asking; --json names the adverts with the question, as the plan is not drawn', async () => {
    const dir = await syncedThenRemoved();
    const scope = nock(SERVICE).delete('/jobs/B-2').reply(200);
    const r = await onTerminal(['sync', dir, '--prune', '--yes'], [], env);
    scope.done();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('[y/N]');
    const other = await syncedThenRemoved();
    const json = await onTerminal(['--json', 'sync', other, '--prune'], ['n\r'], env);
    expect(json.stderr).toMatch(/^- B-2 {2}\(b\.yaml\)\n.*Delete 1 advert/m);
    expect(json.code).toBe(9);
  });
});

describe('sync of an advert past its closing date on a terminal (no --prune)', () => {
  const env = { JOBS_BASE_URL: SERVICE, JOBS_TOKEN: 'tok' };
  async function syncedThenClosed(): Promise<string> {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1', 'jobs:\n  closes: 2026-12-01\n') });
    const scope = nock(SERVICE).post('/jobs').reply(201);
    expect((await onTerminal(['sync', dir], [], { ...env, JOBS_TODAY: '2026-12-01' })).code).toBe(0);
    scope.done();
    return dir;
  }

  it('asks as a prune does: no sends nothing (exit 9); yes deletes it', async () => {
    const dir = await syncedThenClosed();
    const declined = await onTerminal(['sync', dir], ['n\r'], { ...env, JOBS_TODAY: '2026-12-02' });
    expect(declined.stdout).toContain('- A-1 (closed 2026-12-01)  a.yaml');
    expect(declined.stderr).toContain('Delete 1 advert from the service (marked - above)? This cannot be undone. [y/N] ');
    expect(declined.code, declined.stderr).toBe(9);
    const scope = nock(SERVICE).delete('/jobs/A-1').reply(200);
    const accepted = await onTerminal(['sync', dir], ['y\r'], { ...env, JOBS_TODAY: '2026-12-02' });
    scope.done();
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('✔ deleted A-1');
  });
});
