/**
 * The data edges of issue 31, built binary: dates with years 0000-0099, a complex YAML key in a
 * message, Markdown body lines of only U+00A0 or U+3000, the "closes has passed" warning of a
 * `locations:` advert, and `defaults: { locations: [...] }` in a config.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jobs } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { advertYaml } from '../commands/harness.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-data-edges-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
const noLocation = (reference: string) => advertYaml(reference).replace(/^location:\n {2}country: NO\n {2}city: Oslo\n/m, '');
const CLOSED_WARNING = 'jobs.closes: has passed: the advert is closed, and sync deletes it from the service [closed]';

describe('dates with years 0000-0099', () => {
  it('closes: 0026-12-31 has passed (a warning), not absent', async () => {
    const dir = folder({ 'a.yaml': advertYaml('D-1', 'jobs:\n  closes: 0026-12-31\n') });
    const run = await jobs(['validate', '.'], { cwd: dir });
    expect(run.stdout).toContain(`a.yaml:19:11: ${CLOSED_WARNING}`);
    expect(run.code).toBe(0);
  });

  it('closes before opens in the first century is the error it is anywhere else (exit 3)', async () => {
    const dir = folder({ 'a.yaml': advertYaml('D-2', 'jobs:\n  opens: 0026-06-01\n  closes: 0025-12-31\n') });
    const run = await jobs(['validate', '.'], { cwd: dir });
    expect(run.stdout).toContain('a.yaml:20:11: jobs.closes:');
    expect(run.code).toBe(3);
  });
});

describe('messages and bodies', () => {
  it('a complex key is named as written in JSON, never [object Object]', async () => {
    const dir = folder({ 'a.yaml': advertYaml('K-1', '? [a, b]\n: x\n? {k: v}\n: y\n') });
    const run = await jobs(['validate', '.'], { cwd: dir });
    expect(run.stdout).toContain('a.yaml:19:3: ["a","b"]: is not a known field [unknown_field]');
    expect(run.stdout).toContain('{"k":"v"}: is not a known field [unknown_field]');
    expect(run.stdout).not.toContain('[object Object]');
    expect(run.code).toBe(3);
  });

  it('Markdown body lines of only U+00A0 or U+3000 are text: sent as written', async () => {
    const front = advertYaml('NB-1').replace(/^job_description: .*\n/m, '');
    const dir = folder({ 'a.md': `---\n${front}---\n\u00a0\nBody.\n\u3000\n\n` });
    const run = await jobs(['publish', '.', '--dry-run', '--json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const body = (JSON.parse(run.stdout) as { requests: { body: { job_description: string } }[] }).requests[0]!.body;
    expect(body.job_description).toBe('\u00a0\nBody.\n\u3000\n');
  });

  it('the closes-has-passed warning of a locations: advert is printed once, for the file', async () => {
    const places = 'locations:\n  - country: NO\n    city: Oslo\n  - country: NO\n    city: Bergen\n  - country: SE\n    city: Lund\n';
    const dir = folder({ 'a.yaml': `${noLocation('G')}${places}jobs:\n  closes: 2020-01-01\n` });
    const run = await jobs(['validate', '.'], { cwd: dir });
    expect(run.stdout.split('\n').filter((l) => l.includes('[closed]'))).toEqual([`⚠ a.yaml:23:11: ${CLOSED_WARNING}`]);
    expect(run.stderr).toContain('(1 warning)');
  });
});

describe('defaults: { locations: [...] } in a config', () => {
  it('is refused at its line and column (exit 2): nothing is sent, so no body lacks location or carries locations', async () => {
    const s = await liveSandbox();
    const config = 'defaults:\n  recruiter:\n    email: hr@acme.example\n  locations:\n    - country: NO\n      city: Oslo\n';
    for (const advert of [noLocation('DL-1'), advertYaml('DL-2')]) {
      const dir = folder({ '.jobsrc.yaml': config, 'a.yaml': advert });
      for (const args of [
        ['validate', '.'],
        ['publish', '.'],
        ['sync', '.'],
      ]) {
        const run = await jobs(args, { cwd: dir, env: s.env });
        expect(run.stderr, args.join(' ')).toContain(
          ".jobsrc.yaml:4:3: defaults.locations: a list of places cannot be a default: each advert file's places are its own (they make its adverts and their references). Set defaults.location for one place every advert shares, or write `locations:` in the advert files",
        );
        expect(run.code, args.join(' ')).toBe(2);
      }
    }
    expect(s.log).toEqual([]);
  });

  it('in a JSON config too, at its line and column', async () => {
    const dir = folder({ '.jobsrc.json': '{\n  "defaults": {\n    "locations": []\n  }\n}\n', 'a.yaml': advertYaml('DL-3') });
    const run = await jobs(['validate', '.'], { cwd: dir });
    expect(run.stderr).toContain('.jobsrc.json:3:5: defaults.locations: a list of places cannot be a default');
    expect(run.code).toBe(2);
  });

  it('defaults.location, the way that works: the body has location and no locations', async () => {
    const dir = folder({ '.jobsrc.yaml': 'defaults:\n  location:\n    country: NO\n    city: Oslo\n', 'a.yaml': noLocation('DL-4') });
    const run = await jobs(['publish', '.', '--dry-run', '--json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const body = (JSON.parse(run.stdout) as { requests: { body: Record<string, unknown> }[] }).requests[0]!.body;
    expect(body.location).toEqual({ country: 'NO', city: 'Oslo' });
    expect(body).not.toHaveProperty('locations');
  });
});
