import { describe, expect, it } from 'vitest';
import { execute } from '../../../../src/cli/program.js';

async function jobs(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await execute(argv, {
    io: { stdin: (async function* () {})(), stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) } },
    env: {},
    cwd: process.cwd(),
    handleSignals: false,
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('jobs sandbox (through the CLI program)', () => {
  it('documents its options, the fixture routes and examples in --help', async () => {
    const { code, out } = await jobs(['sandbox', '--help']);
    expect(code).toBe(0);
    for (const text of [
      '--port',
      '--host',
      '--token',
      '--data',
      '--quota',
      '--latency',
      '--fail-rate',
      '--max-body',
      '--reset',
      'POST /_sandbox/applications',
      'GET  /_sandbox/requests',
      'GET  /_sandbox/adverts',
      'GET  /_sandbox/events',
      'POST /_sandbox/reset',
      'JOBS_BASE_URL=',
    ]) {
      expect(out).toContain(text);
    }
  });

  it('exits 2 with a clear message on a bad option', async () => {
    const { code, err } = await jobs(['sandbox', '--quota', 'lots']);
    expect(code).toBe(2);
    expect(err).toContain('--quota: expected <requests>/<s|m|h>');
  });
});
