/** Which service, profile and token a run uses, and where a refused token came from. */
import { describe, expect, it } from 'vitest';
import { rejectedTokenHint, serviceInUse } from '../../../src/core/config/service-in-use.js';
import type { SettingSource } from '../../../src/core/config/types.js';

const profile = { value: 'prod', source: { kind: 'flag', name: '--profile' } as SettingSource };

describe('serviceInUse', () => {
  it('a base URL and a token: the URL and where each came from', () => {
    const use = serviceInUse({
      profile,
      baseUrl: { value: 'https://jobs.example/api', source: { kind: 'env', name: 'JOBS_BASE_URL' } },
      token: { value: 'secret-token', source: { kind: 'keyring', account: 'prod' } },
    });
    expect(use).toEqual({
      service: { kind: 'url', url: 'https://jobs.example/api', source: { kind: 'env', name: 'JOBS_BASE_URL' } },
      profile,
      token: { kind: 'found', source: { kind: 'keyring', account: 'prod' } },
    });
    expect(JSON.stringify(use)).not.toContain('secret-token');
  });

  it('--sandbox: the sandbox and its own token', () => {
    const sandbox: SettingSource = { kind: 'sandbox' };
    expect(serviceInUse({ profile, baseUrl: { value: undefined, source: sandbox }, token: { value: 'sandbox', source: sandbox } })).toMatchObject({
      service: { kind: 'sandbox' },
      token: { kind: 'sandbox' },
    });
  });

  it('neither set', () => {
    expect(serviceInUse({ profile, baseUrl: { value: undefined, source: { kind: 'default' } }, token: undefined })).toMatchObject({
      service: { kind: 'unset' },
      token: { kind: 'unset' },
    });
  });
});

describe('rejectedTokenHint', () => {
  const place = { name: 'jobs-cli', cwd: '/work/p', env: { HOME: '/home/u' } };
  it('names the source and how to replace the token', () => {
    expect(rejectedTokenHint(place, { kind: 'env', name: 'JOBS_TOKEN' })).toBe(
      "The token came from JOBS_TOKEN; check its value, or unset it to use the profile's or the stored token.",
    );
    expect(rejectedTokenHint(place, { kind: 'store', path: '/home/u/.config/jobs/credentials.json' })).toBe(
      "The token came from 'jobs-cli login' (~/.config/jobs/credentials.json); run 'jobs-cli login' again to replace it.",
    );
    expect(rejectedTokenHint({ ...place, tokenFile: 't.txt' }, { kind: 'flag', name: '--token-file' })).toBe(
      "The token came from --token-file t.txt; check the file's content.",
    );
    expect(rejectedTokenHint(place, undefined)).toBe("Run 'jobs-cli login' to store a token.");
  });
});
