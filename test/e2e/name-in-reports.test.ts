/**
 * Hints inside per-advert failures (a 401 in a bulk publish) name the tool as invoked, like the
 * top-level errors do: `jobs-cli login`, not `jobs login`, when run as jobs-cli.
 */
import { describe, expect, it } from 'vitest';
import { jobs } from './helpers.js';
import { liveSandbox } from './sandbox.js';

describe('the name in per-advert failures', () => {
  it.each(['jobs', 'jobs-cli'])('a 401 in publish, run as %s, names %s login', async (name) => {
    const s = await liveSandbox({ tokens: ['right'] });
    // JOBS_CLI_NAME is what the shell-init function sets; the name comes from the same place either way.
    const r = await jobs(['publish', 'examples/adverts/backend-engineer.yaml'], { env: { ...s.env, JOBS_TOKEN: 'wrong', JOBS_CLI_NAME: name } });
    expect(r.code).toBe(4);
    const out = r.stdout + r.stderr;
    expect(out).toContain(`\`${name} login\``);
    if (name === 'jobs-cli') expect(out).not.toContain('`jobs login`');
  });
});
