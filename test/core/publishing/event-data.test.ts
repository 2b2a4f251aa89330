/**
 * Event data is sent as JSON made from JavaScript numbers: a number that would not arrive as written
 * (12345678901234567890 rounded, 1e400 as null) is refused where it is written, and nothing is sent.
 */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runJobs, SERVICE, serviceEnv, tempFolder } from '../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('jobs event: numbers in the data', () => {
  it('refuses --data with a number that would be rounded or lost (exit 2, nothing sent), naming it', async () => {
    const big = await runJobs(['event', 'a1', 'recruiter_like', '--data', '{"offer": {"id": 12345678901234567890}}'], { env: serviceEnv });
    expect(big.code).toBe(2);
    expect(big.stderr).toBe(
      'jobs: --data: 12345678901234567890 cannot be represented exactly (it would be sent as 12345678901234567000)\n  write it as a string (in quotes) to send it as written\n',
    );
    const huge = await runJobs(['event', 'a1', 'recruiter_like', '--data', '{"score": 1e400}'], { env: serviceEnv });
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('--data: 1e400 is out of range (it would be sent as null)');
    const tiny = await runJobs(['event', 'a1', 'recruiter_like', '--data', '{"score": [1, 1e-400]}'], { env: serviceEnv });
    expect(tiny.stderr).toContain('--data: 1e-400 cannot be represented exactly (it would be sent as 0)');
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('sends numbers that arrive as written, and digits inside strings, unchanged', async () => {
    const data = { id: '12345678901234567890', ratio: 0.1, price: 1.5, max: 9007199254740991, small: -2.5e-7, note: 'call 1e400' };
    const scope = nock(SERVICE).post('/job_applications/a1/events', { kind: 'recruiter_like', data }).reply(200);
    const text = '{"id": "12345678901234567890", "ratio": 0.1, "price": 1.50, "max": 9007199254740991, "small": -2.5e-7, "note": "call 1e400"}';
    const r = await runJobs(['event', 'a1', 'recruiter_like', '--data', text], { env: serviceEnv });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    scope.done();
  });

  it('refuses such numbers in --data-file, YAML or JSON, with their line (exit 3, nothing sent)', async () => {
    const dir = tempFolder({
      'd.yaml': 'reason: filled\nids:\n  - 0x1FFFFFFFFFFFFFFFFF\n',
      'e.yaml': 'score: .inf\n',
      'd.json': '{"a": 1,\n "b": 12345678901234567890}\n',
      'f.yaml': 'x: &n 99999999999999999999.5\ny: 1\n',
    });
    const hex = await runJobs(['event', 'a1', 'recruiter_like', '--data-file', 'd.yaml'], { cwd: dir, env: serviceEnv });
    expect(hex.code).toBe(3);
    expect(hex.stderr).toBe(
      'jobs: --data-file d.yaml:3:5: 0x1FFFFFFFFFFFFFFFFF cannot be represented exactly (it would be sent as 590295810358705700000)\n  write it as a string (in quotes) to send it as written\n',
    );
    const inf = await runJobs(['event', 'a1', 'recruiter_like', '--data-file', 'e.yaml'], { cwd: dir, env: serviceEnv });
    expect(inf.code).toBe(3);
    expect(inf.stderr).toContain('--data-file e.yaml:1:8: .inf has no JSON form (it would be sent as null)');
    const json = await runJobs(['event', 'a1', 'recruiter_like', '--data-file', 'd.json'], { cwd: dir, env: serviceEnv });
    expect(json.code).toBe(3);
    expect(json.stderr).toContain('--data-file d.json:2:7: 12345678901234567890 cannot be represented exactly');
    const fraction = await runJobs(['event', 'a1', 'recruiter_like', '--data-file', 'f.yaml'], { cwd: dir, env: serviceEnv });
    expect(fraction.stderr).toContain(
      '--data-file f.yaml:1:7: 99999999999999999999.5 cannot be represented exactly (it would be sent as 100000000000000000000)',
    );
  });
});
