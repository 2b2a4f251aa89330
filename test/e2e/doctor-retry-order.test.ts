/** doctor's output in the order it happens: the settings, then a retry of its probe (stderr), then the checks. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../support/run-process.js';
import { BIN, isolatedEnv, ROOT } from './helpers.js';

describe('jobs doctor when its probe is retried', () => {
  it('prints the settings table first, the retry line after it, then the checks', async () => {
    let requests = 0;
    // A service on 127.0.0.1: 503 to the first probe, 404 (an unknown advert, credentials accepted) to the retry.
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(requests === 1 ? 503 : 404, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const env = isolatedEnv({ JOBS_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, JOBS_TOKEN: 'tok_doctor' });
    try {
      // stdout and stderr on one pipe, as a terminal shows them: in the order they were written.
      const r = await runProcess('sh', ['-c', `"${process.execPath}" "${BIN}" doctor 2>&1`], { cwd: ROOT, env, timeoutMs: 30_000 });
      expect(r.code, r.stdout).toBe(0);
      expect(requests).toBe(2);
      const settings = r.stdout.indexOf('Settings\n');
      const retry = r.stdout.search(/GET \/jobs\/jobs-doctor-[0-9a-f]+\/stats: .*503.*: retrying in .*, attempt 2 of 2/);
      const checks = r.stdout.indexOf('Checks\n');
      expect(settings, r.stdout).toBe(0);
      expect(retry, r.stdout).toBeGreaterThan(settings);
      expect(checks, r.stdout).toBeGreaterThan(retry);
    } finally {
      server.close();
      rmSync(env.HOME!, { recursive: true, force: true });
    }
  });
});
