/**
 * jobs preview on its own: the default folder (in .jobs/, ignored by git), the pages of a
 * `locations:` advert, an advert not open yet, and --open: a browser is started where there is a
 * desktop, never in CI (a stand-in xdg-open on PATH records whether it was run).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { advertYaml } from '../commands/harness.js';

let dir: string;
let bin: string;
let marker: string;
let env: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'jobs-preview-e2e-'));
  bin = join(dir, 'bin');
  marker = join(dir, 'opened.txt');
  mkdirSync(bin);
  // The desktop's opener, standing in: it writes down what it was asked to open.
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${marker}'\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  env = isolatedEnv({ JOBS_TODAY: '2026-11-27', PATH: `${bin}:${process.env.PATH ?? ''}`, DISPLAY: ':99' });
  writeFileSync(
    join(dir, 'places.yaml'),
    advertYaml('PL-1', 'jobs:\n  opens: 2026-12-15\n').replace(
      'location:\n  country: NO\n  city: Oslo\n',
      'locations:\n  - country: NO\n    city: Oslo\n  - country: NO\n    city: Tromsø\n',
    ),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const waitFor = async (path: string, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end && !existsSync(path);) await new Promise((r) => setTimeout(r, 50));
  return existsSync(path);
};

describe('jobs preview', () => {
  it('writes a page per place into .jobs/preview (which git ignores), an advert not open yet included', async () => {
    const r = await jobs(['preview', 'places.yaml'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('.jobs/preview/PL-1-oslo.html\n.jobs/preview/PL-1-tromso.html\n');
    expect(r.stderr).toContain('wrote 2 preview pages into .jobs/preview');
    expect(readFileSync(join(dir, '.jobs/.gitignore'), 'utf8')).toContain('*');
    expect(readFileSync(join(dir, '.jobs/preview/PL-1-tromso.html'), 'utf8')).toContain('Tromsø, NO');
  });

  it('--open in CI: no browser, and it says why', async () => {
    rmSync(marker, { force: true });
    const r = await jobs(['preview', 'places.yaml', '--open'], { cwd: dir, env: { ...env, CI: 'true' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the page was not opened: CI is set');
    expect(await waitFor(marker, 1000)).toBe(false);
  });

  it('--open with no desktop: no browser', async () => {
    rmSync(marker, { force: true });
    const { DISPLAY: _d, ...headless } = env;
    const r = await jobs(['preview', 'places.yaml', '--open'], { cwd: dir, env: headless });
    expect(r.stderr).toContain('there is no desktop here');
    expect(await waitFor(marker, 1000)).toBe(false);
  });

  it('--open on a desktop: the first page is opened', async () => {
    rmSync(marker, { force: true });
    const r = await jobs(['preview', 'places.yaml', '--open'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(await waitFor(marker, 5000)).toBe(true);
    expect(readFileSync(marker, 'utf8')).toBe(`${join(dir, '.jobs/preview/PL-1-oslo.html')}\n`);
  });

  it('a .jobs planted as a link is refused (exit 2), nothing written through it', async () => {
    const other = mkdtempSync(join(tmpdir(), 'jobs-preview-planted-'));
    const elsewhere = join(other, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(other, 'a.yaml'), advertYaml('A-1'));
    symlinkSync(elsewhere, join(other, '.jobs'));
    const r = await jobs(['preview', 'a.yaml'], { cwd: other, env });
    expect(r.code).toBe(2);
    expect(existsSync(join(elsewhere, 'preview'))).toBe(false);
    rmSync(other, { recursive: true, force: true });
  });
});
