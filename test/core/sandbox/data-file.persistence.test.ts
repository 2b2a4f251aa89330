import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/core/errors/failures.js';
import { createSandbox } from '../../../src/core/sandbox/server.js';
import { advert, call, manualClock, start } from '../../support/sandbox-server.js';
import { tempDir } from '../../support/temp-dirs.js';

describe('sandbox: persistence to a data file', () => {
  it('keeps adverts, applications and events across a restart', async () => {
    const dir = tempDir('jobs-sandbox-');
    const dataFile = join(dir, 'nested', 'state.json');
    const clock = manualClock();
    const first = await start({ dataFile, now: clock.now, tokens: ['secret-one'] });
    await first.call('POST', '/jobs', { body: advert('ACME-1'), auth: 'secret-one' });
    const { id } = (await first.call('POST', '/_sandbox/applications', { body: { reference: 'ACME-1' }, auth: null })).json as { id: string };
    await first.call('POST', `/job_applications/${id}/events`, { body: { kind: 'recruiter_view' }, auth: 'secret-one' });
    await first.call('PUT', '/jobs/ACME-1', { body: { title: 'Updated' }, auth: 'secret-one' });
    const statsBefore = (await first.call('GET', '/jobs/ACME-1/stats', { auth: 'secret-one' })).json;
    const stateBefore = first.sandbox.state();
    await first.sandbox.close();

    const onDisk = readFileSync(dataFile, 'utf8');
    expect(JSON.parse(onDisk)).toEqual(stateBefore);
    expect(onDisk).not.toContain('secret-one');
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json']);

    const second = await start({ dataFile, now: clock.now, tokens: ['secret-one'] });
    expect(second.sandbox.state()).toEqual(stateBefore);
    expect((await second.call('GET', '/jobs/ACME-1/stats', { auth: 'secret-one' })).json).toEqual(statsBefore);
    // The application survived: a second view is accepted and not counted again.
    expect((await second.call('POST', `/job_applications/${id}/events`, { body: { kind: 'recruiter_view' }, auth: 'secret-one' })).status).toBe(200);
    expect((await second.call('GET', '/jobs/ACME-1/stats', { auth: 'secret-one' })).json).toEqual(statsBefore);
    expect((await second.call('POST', '/jobs', { body: advert('ACME-1'), auth: 'secret-one' })).json).toEqual({ errors: { reference: ['taken'] } });
  });

  it('writes after each change, so a second sandbox on the same file sees it without a restart', async () => {
    const dataFile = join(tempDir('jobs-sandbox-'), 'state.json');
    const a = await start({ dataFile });
    const b = await start({ dataFile });
    await a.call('POST', '/jobs', { body: advert('FROM-A') });
    expect((await b.call('GET', '/jobs/FROM-A/stats')).status).toBe(200);
    await b.call('DELETE', '/jobs/FROM-A');
    expect((await a.call('GET', '/jobs/FROM-A/stats')).status).toBe(404);
  });

  it('does not write the file for requests that change nothing', async () => {
    const dataFile = join(tempDir('jobs-sandbox-'), 'state.json');
    const s = await start({ dataFile });
    await s.call('GET', '/jobs/NOPE/stats');
    await s.call('POST', '/jobs', { body: { title: 'x' } });
    expect(readdirSync(join(dataFile, '..'))).toEqual([]);
  });

  it('clears the file on POST /_sandbox/reset', async () => {
    const dataFile = join(tempDir('jobs-sandbox-'), 'state.json');
    const s = await start({ dataFile });
    await s.call('POST', '/jobs', { body: advert('A') });
    await s.call('POST', '/_sandbox/reset', { auth: null });
    expect(JSON.parse(readFileSync(dataFile, 'utf8'))).toMatchObject({ adverts: [], events: [] });
  });

  it('refuses a data file that is not sandbox state, saying what to do', () => {
    const dataFile = join(tempDir('jobs-sandbox-'), 'state.json');
    writeFileSync(dataFile, '{"hello": "world"}');
    expect(() => createSandbox({ dataFile })).toThrow(ConfigError);
    try {
      createSandbox({ dataFile });
    } catch (error) {
      expect((error as ConfigError).message).toContain(dataFile);
      expect((error as ConfigError).details.join(' ')).toContain('--reset');
    }
  });

  it('refuses a data file nested deeper than anything it writes', () => {
    const dataFile = join(tempDir('jobs-sandbox-'), 'state.json');
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    writeFileSync(dataFile, `{"version":1,"nextSerial":1,"adverts":[],"events":[{"data":${deep}}]}`);
    expect(() => createSandbox({ dataFile })).toThrow(/is not valid sandbox state \(nested too deeply\)/);
  });

  it('binds only to the host it is given', async () => {
    const s = createSandbox();
    const { baseUrl } = await s.listen(0, '127.0.0.1');
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await call(baseUrl, 'GET', '/jobs/X/stats')).status).toBe(404);
    await s.close();
    await expect(fetch(`${baseUrl}/jobs/X/stats`)).rejects.toThrow();
  });
});
