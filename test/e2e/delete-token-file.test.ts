/**
 * `--token-file` as ssh treats a key: a file that reports size 0 but holds text (/proc/self/environ)
 * is read, and refused as no token without a byte of it shown (it said "is empty"); one that other
 * users can read is used with a warning that names it and `chmod 600`.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jobs-token-file-'));
const SECRET = 'tok_SECRET_IN_ENV_81723';
const env = isolatedEnv({ JOBS_BASE_URL: 'http://127.0.0.1:1', SOMETHING_SECRET: SECRET });
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(env.HOME!, { recursive: true, force: true });
});

describe('--token-file (built binary)', () => {
  it('/proc/self/environ: refused as no token (exit 2), its content never shown', async () => {
    const r = await jobs(['--token-file', '/proc/self/environ', '--retries', '0', 'delete', 'A', '--yes'], { env, cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'token file /proc/self/environ (from --token-file) does not hold a token: a token is one word of printable characters, and this file has spaces, line breaks or control characters in it (its content is not shown)',
    );
    expect(r.stderr).not.toContain('is empty');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('readable by others: used, with a warning naming it and chmod 600; not once it is 600', async () => {
    const file = join(dir, 'token');
    writeFileSync(file, 'tok_abcdef123456\n');
    chmodSync(file, 0o644);
    const open = await jobs(['--token-file', 'token', '--retries', '0', 'delete', 'A', '--yes'], { env, cwd: dir });
    expect(open.stderr).toContain('jobs-cli: warning: token file token (from --token-file) can be read by other users (mode 0644): run chmod 600 token\n');
    // Used: the request was made (nothing listens there).
    expect(open.stdout + open.stderr).toContain('cannot reach http://127.0.0.1:1/');
    expect(open.stdout + open.stderr).not.toContain('tok_abcdef123456');
    chmodSync(file, 0o600);
    const closed = await jobs(['--token-file', 'token', '--retries', '0', 'delete', 'A', '--yes'], { env, cwd: dir });
    expect(closed.stderr).not.toContain('warning');
  });
});
