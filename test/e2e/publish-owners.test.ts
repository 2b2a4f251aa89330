/**
 * Issue 30's repro: two adverts from `init` no longer overwrite each other, and an advert whose
 * reference another file published (with another title) is named before anything is sent; in a
 * script it needs --yes. The built binary against the embedded sandbox (--sandbox).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A private HOME that is also the project folder (the test removes it). */
function project(): { env: Record<string, string>; dir: string } {
  const env = isolatedEnv();
  made.push(env.HOME!);
  return { env, dir: env.HOME! };
}

const referenceOf = (file: string) => /^reference: (\S+)$/m.exec(readFileSync(file, 'utf8'))![1]!;
const recorded = (dir: string) => JSON.parse(readFileSync(join(dir, 'state/jobs/sandbox-published.json'), 'utf8')).adverts;

describe('two adverts from init, published (issue 30)', () => {
  it('get references of their own: both are created, neither replaces the other', async () => {
    const { env, dir } = project();
    expect((await jobs(['init', 'r1/backend.yaml'], { env, cwd: dir })).code).toBe(0);
    expect((await jobs(['init', 'r2/sales.yaml'], { env, cwd: dir })).code).toBe(0);
    const backend = referenceOf(join(dir, 'r1/backend.yaml'));
    const sales = referenceOf(join(dir, 'r2/sales.yaml'));
    expect(backend).toMatch(/^BACKEND-[0-9A-HJKMNP-TV-Z]{6}$/);
    expect(sales).toMatch(/^SALES-[0-9A-HJKMNP-TV-Z]{6}$/);

    const first = await jobs(['--sandbox', 'publish', 'r1/backend.yaml'], { env, cwd: dir });
    const second = await jobs(['--sandbox', 'publish', 'r2/sales.yaml'], { env, cwd: dir });
    expect(first.stdout).toContain(`✔ created ${backend} r1/backend.yaml`);
    expect(second.stdout).toContain(`✔ created ${sales} r2/sales.yaml`);
    expect(second.stderr).not.toContain('warning');
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(Object.keys(recorded(dir)).sort()).toEqual([backend, sales].sort());
  });
});

describe('publish --dry-run with no service named', () => {
  it('still needs none: the check has no record to read', async () => {
    const { env, dir } = project();
    expect((await jobs(['init', 'a.yaml'], { env, cwd: dir })).code).toBe(0);
    const r = await jobs(['publish', '--dry-run', 'a.yaml'], { env, cwd: dir });
    expect(r.stderr).toBe('dry run: 1 advert(s) valid; nothing was sent\n');
    expect(r.code).toBe(0);
  });
});

describe('an advert whose reference another file published', () => {
  /** r1/backend.yaml published; r2/sales.yaml holds its reference (copied) with another title. */
  async function copiedReference() {
    const { env, dir } = project();
    await jobs(['init', 'r1/backend.yaml'], { env, cwd: dir });
    const reference = referenceOf(join(dir, 'r1/backend.yaml'));
    mkdirSync(join(dir, 'r2'));
    writeFileSync(join(dir, 'r2/sales.yaml'), readFileSync(join(dir, 'r1/backend.yaml'), 'utf8').replace('title: Backend Engineer', 'title: Sales Manager'));
    expect((await jobs(['--sandbox', 'publish', 'r1/backend.yaml'], { env, cwd: dir })).code).toBe(0);
    return { env, dir, reference };
  }
  const warning = (reference: string, file: string) =>
    `jobs-cli: warning: ${file} would replace ${reference} on the service: it was last published from r1/backend.yaml as "Backend Engineer", and this advert is "Sales Manager"\n`;

  it('publish without a terminal names it and refuses without --yes (exit 2, nothing sent)', async () => {
    const { env, dir, reference } = await copiedReference();
    const r = await jobs(['--sandbox', 'publish', 'r2/sales.yaml'], { env, cwd: dir });
    expect(r.stderr).toBe(
      warning(reference, 'r2/sales.yaml') +
        'jobs-cli: refusing to replace 1 advert published from another file without confirmation; nothing was sent\n' +
        '  give the new advert a reference of its own, or pass --yes to replace it (publish --yes)\n',
    );
    expect(r.code).toBe(2);
    expect(recorded(dir)[reference]).toMatchObject({ title: 'Backend Engineer', file: join(dir, 'r1/backend.yaml') });

    // --no-input refuses the same way.
    expect((await jobs(['--sandbox', '--no-input', 'publish', 'r2/sales.yaml'], { env, cwd: dir })).code).toBe(2);
    // A dry run warns and sends nothing.
    const dry = await jobs(['--sandbox', 'publish', '--dry-run', 'r2/sales.yaml'], { env, cwd: dir });
    expect(dry.stderr).toContain(warning(reference, 'r2/sales.yaml'));
    expect(dry.code).toBe(0);
  });

  it('publish --yes warns, then replaces it; the record then names the new file', async () => {
    const { env, dir, reference } = await copiedReference();
    const r = await jobs(['--sandbox', 'publish', 'r2/sales.yaml', '--yes'], { env, cwd: dir });
    expect(r.stderr).toContain(warning(reference, 'r2/sales.yaml'));
    expect(r.stdout).toContain(`✔ updated ${reference} r2/sales.yaml`);
    expect(r.code).toBe(0);
    expect(recorded(dir)[reference]).toMatchObject({ title: 'Sales Manager', file: join(dir, 'r2/sales.yaml') });
  });

  it('sync of a folder holding it refuses the same way, and goes on with --yes', async () => {
    const { env, dir, reference } = await copiedReference();
    const refused = await jobs(['--sandbox', 'sync', 'r2'], { env, cwd: dir });
    expect(refused.stderr).toContain(warning(reference, 'r2/sales.yaml'));
    expect(refused.stderr).toContain('pass --yes to replace it (sync --yes)');
    expect(refused.code).toBe(2);
    expect(recorded(dir)[reference]).toMatchObject({ title: 'Backend Engineer' });
    const synced = await jobs(['--sandbox', 'sync', 'r2', '--yes'], { env, cwd: dir });
    expect(synced.code, synced.stderr).toBe(0);
    expect(recorded(dir)[reference]).toMatchObject({ title: 'Sales Manager' });
  });

  it('says nothing for the same file with a new title, or the file moved with the same title', async () => {
    const { env, dir, reference } = await copiedReference();
    const file = join(dir, 'r1/backend.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('title: Backend Engineer', 'title: Backend Engineer (Node.js)'));
    const edited = await jobs(['--sandbox', 'publish', 'r1/backend.yaml'], { env, cwd: dir });
    expect(edited.stderr).not.toContain('warning');
    expect(edited.code).toBe(0);
    renameSync(file, join(dir, 'r1/node.yaml'));
    const moved = await jobs(['--sandbox', 'publish', 'r1/node.yaml'], { env, cwd: dir });
    expect(moved.stderr).toBe('✔ 1 advert: 1 updated\n');
    expect(moved.stdout).toContain(`✔ updated ${reference} r1/node.yaml`);
    expect(moved.code).toBe(0);
  });
});
