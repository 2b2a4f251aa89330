import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCredentials, removeCredential, storeCredential } from '../../../src/core/config/credentials.js';
import { makeSandbox, type Sandbox } from '../../support/config-run.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const posix = process.platform !== 'win32';

describe('credentials store', () => {
  it('lives in $XDG_CONFIG_HOME/jobs/credentials.json with the documented shape', async () => {
    const path = await storeCredential(box.env, undefined, { token: 't-1', base_url: 'https://a.example.com' });
    await storeCredential(box.env, 'prod', { token: 't-2' });
    expect(path).toBe(join(box.xdg, 'jobs', 'credentials.json'));
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      version: 1,
      profiles: { default: { token: 't-1', base_url: 'https://a.example.com' }, prod: { token: 't-2' } },
    });
    expect((await readCredentials(box.env)).store.profiles.prod).toEqual({ token: 't-2' });
  });

  it('defaults to ~/.config/jobs/ without XDG_CONFIG_HOME, and ignores a relative one', async () => {
    const path = await storeCredential({ HOME: box.home, XDG_CONFIG_HOME: 'relative/dir' }, undefined, { token: 't' });
    expect(path).toBe(join(box.home, '.config', 'jobs', 'credentials.json'));
  });

  it.runIf(posix)('is written with mode 0600 in a 0700 directory, leaving no temporary file', async () => {
    const path = await storeCredential(box.env, undefined, { token: 't' });
    await storeCredential(box.env, 'other', { token: 'u' });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(box.xdg, 'jobs'))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(box.xdg, 'jobs'))).toEqual(['credentials.json']);
  });

  it('removes one profile and says when there was nothing to remove', async () => {
    await storeCredential(box.env, 'prod', { token: 't' });
    await storeCredential(box.env, 'dev', { token: 'u' });
    expect(await removeCredential(box.env, 'prod')).toMatchObject({ removed: true });
    expect(await removeCredential(box.env, 'prod')).toMatchObject({ removed: false });
    expect((await readCredentials(box.env)).store.profiles).toEqual({ dev: { token: 'u' } });
  });

  it('a missing store is empty', async () => {
    expect((await readCredentials(box.env)).store).toEqual({ version: 1, profiles: {} });
  });

  it('a store from a newer version is refused, not overwritten', async () => {
    const path = await box.write(join(box.xdg, 'jobs', 'credentials.json'), '{"version": 2, "profiles": {}}');
    await expect(storeCredential(box.env, undefined, { token: 't' })).rejects.toThrow(`${path}: has version 2, which this jobs does not know (expected 1)`);
    expect(await readFile(path, 'utf8')).toBe('{"version": 2, "profiles": {}}');
  });

  it('reads an entry whose token is in the OS keyring (a mark, no token) and keeps the mark when another profile is written', async () => {
    const path = await box.write(
      join(box.xdg, 'jobs', 'credentials.json'),
      '{"version": 1, "profiles": {"default": {"keyring": true, "base_url": "https://a.example.com"}}}',
    );
    await storeCredential(box.env, 'other', { token: 'u' });
    expect(JSON.parse(await readFile(path, 'utf8')).profiles).toEqual({ default: { keyring: true, base_url: 'https://a.example.com' }, other: { token: 'u' } });
  });

  it('an entry with neither a token nor the keyring mark is damage', async () => {
    const path = await box.write(join(box.xdg, 'jobs', 'credentials.json'), '{"version": 1, "profiles": {"default": {"keyring": false}}}');
    await expect(readCredentials(box.env)).rejects.toThrow(`${path}: profiles.default: has no token`);
  });
});
