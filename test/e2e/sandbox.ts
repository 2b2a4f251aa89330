import { afterEach } from 'vitest';
import { createSandbox } from '../../src/core/sandbox/server.js';
import type { Sandbox, SandboxOptions } from '../../src/core/sandbox/types.js';
import { isolatedEnv } from './helpers.js';

const running: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

export interface LiveSandbox {
  sandbox: Sandbox;
  baseUrl: string;
  /** One line per request the sandbox answered: `POST /jobs 201 3ms`. */
  log: string[];
  /** Environment for the spawned binary: this sandbox, its token, a private HOME. */
  env: Record<string, string>;
  count(pattern: RegExp): number;
}

/** A sandbox on 127.0.0.1 (a free port) that the built binary talks to over real sockets. */
export async function liveSandbox(options: SandboxOptions = {}): Promise<LiveSandbox> {
  const log: string[] = [];
  const sandbox = createSandbox({ ...options, log: (line) => log.push(line) });
  running.push(sandbox);
  const { baseUrl } = await sandbox.listen(0, '127.0.0.1');
  return {
    sandbox,
    baseUrl,
    log,
    env: isolatedEnv({ JOBS_BASE_URL: baseUrl, JOBS_TOKEN: 'sandbox' }),
    count: (pattern) => log.filter((l) => pattern.test(l)).length,
  };
}
