/**
 * The service key (config/service-key.ts) keys the sync state, the events journal, the history and the
 * record of published adverts: it lives with the service's client, so none of those reaches into sync/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalServiceKey, serviceKey } from '../../../src/core/config/service-key.js';

const CORE = join(import.meta.dirname, '../../../src/core');

describe('the service key', () => {
  it('is one key per service, whoever asks', () => {
    const config = { baseUrl: { value: 'HTTPS://Jobs.Example.TEST:443/api/' } } as Parameters<typeof serviceKey>[1];
    expect(serviceKey(false, config)).toBe('https://jobs.example.test/api');
    expect(canonicalServiceKey('https://jobs.example.test/api/./')).toBe('https://jobs.example.test/api');
    expect(serviceKey(true, config)).toBe('sandbox');
  });

  it('events, history and published import nothing of sync/', () => {
    const offending: string[] = [];
    for (const folder of ['events', 'history', 'published']) {
      for (const file of readdirSync(join(CORE, folder)).filter((f) => f.endsWith('.ts'))) {
        if (/from '\.\.\/sync\//.test(readFileSync(join(CORE, folder, file), 'utf8'))) offending.push(`${folder}/${file}`);
      }
    }
    expect(offending).toEqual([]);
  });
});
