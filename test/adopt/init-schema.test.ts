/** jobs init and jobs schema: files that editors understand, and the schemas as shipped. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runJobs } from '../commands/harness.js';
import { schemaReference } from '../../src/core/scaffold/schema-ref.js';
import { tempDir } from '../support/temp-dirs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MODELINE = /^# yaml-language-server: \$schema=(.+)\n/;
const empty = () => tempDir('jobs-init-');
const read = (file: string) => readFileSync(file, 'utf8');

describe('jobs init', () => {
  it('writes a commented advert that is valid as written, pointing editors at the schema', async () => {
    const dir = empty();
    const r = await runJobs(['init'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const text = read(join(dir, 'advert.yaml'));
    // No project install here: the absolute path of the package's schema, and a word about it.
    expect(MODELINE.exec(text)?.[1]).toBe(join(ROOT, 'schemas/advert.schema.json'));
    expect(r.stderr).toContain('✔ wrote advert.yaml');
    expect(r.stderr).toContain('the schema path is absolute: it works on this machine only');
    expect(text).toMatch(/^# apply_email: /m); // optional fields are there, commented out
    expect(text.split('\n').filter((l) => l.trim().startsWith('#')).length).toBeGreaterThan(15);

    const check = await runJobs(['validate', 'advert.yaml'], { cwd: dir });
    expect(check.stderr).toBe('✔ 1 advert in 1 file: all valid\n');
    expect(check.code).toBe(0);

    // The commented jobs: block (the advert's dates), uncommented, is valid too.
    writeFileSync(
      join(dir, 'dated.yaml'),
      text.replace(/^# jobs:\n(# {3}.*\n)+/m, (block) => block.replace(/^# /gm, '')),
    );
    expect(read(join(dir, 'dated.yaml'))).toMatch(/^jobs:\n {2}opens: \d{4}-\d{2}-\d{2}\n {2}closes: /m);
    const dated = await runJobs(['validate', 'dated.yaml'], { cwd: dir, env: { JOBS_TODAY: '2026-12-01' } });
    expect(dated.stderr).toBe('✔ 1 advert in 1 file: all valid\n');
  });

  it('never overwrites a file without --force (exit 2, file unchanged)', async () => {
    const dir = empty();
    writeFileSync(join(dir, 'advert.yaml'), 'mine\n');
    const r = await runJobs(['init', 'advert.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('jobs: advert.yaml already exists; nothing was written\n  pass --force to overwrite it, or name another file: jobs init <file>\n');
    expect(read(join(dir, 'advert.yaml'))).toBe('mine\n');
    const forced = await runJobs(['init', 'advert.yaml', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(read(join(dir, 'advert.yaml'))).toMatch(MODELINE);
  });

  it('puts advert.yaml inside a folder, existing or named with a trailing slash, creating it', async () => {
    const dir = empty();
    mkdirSync(join(dir, 'existing'));
    expect((await runJobs(['init', 'existing'], { cwd: dir })).code).toBe(0);
    expect((await runJobs(['init', 'new/deeper/'], { cwd: dir })).code).toBe(0);
    expect(existsSync(join(dir, 'existing/advert.yaml'))).toBe(true);
    expect(existsSync(join(dir, 'new/deeper/advert.yaml'))).toBe(true);
  });

  it('prints to stdout with -, and says what it wrote with --json', async () => {
    const dir = empty();
    const printed = await runJobs(['init', '-'], { cwd: dir });
    expect(printed.stdout).toMatch(MODELINE);
    expect(printed.stdout).toMatch(/^reference: ADVERT-[0-9A-HJKMNP-TV-Z]{6}$/m);
    expect(existsSync(join(dir, 'advert.yaml'))).toBe(false);
    const json = await runJobs(['--json', 'init', 'a.yaml'], { cwd: dir });
    expect(JSON.parse(json.stdout)).toEqual({
      format_version: 1,
      file: 'a.yaml',
      kind: 'advert',
      schema: join(ROOT, 'schemas/advert.schema.json'),
      schema_kind: 'absolute',
    });
    expect(json.stderr).toBe('');
  });

  it('in a project that installs jobs, points at node_modules relatively (the same on every clone)', async () => {
    const dir = empty();
    mkdirSync(join(dir, 'node_modules/jobs-cli/schemas'), { recursive: true });
    writeFileSync(join(dir, 'node_modules/jobs-cli/schemas/advert.schema.json'), '{}');
    const r = await runJobs(['init', 'adverts/team/backend.yaml'], { cwd: dir });
    expect(r.code).toBe(0);
    const ref = MODELINE.exec(read(join(dir, 'adverts/team/backend.yaml')))?.[1];
    expect(ref).toBe('../../node_modules/jobs-cli/schemas/advert.schema.json');
    expect(existsSync(resolve(dir, 'adverts/team', ref!))).toBe(true);
    expect(r.stderr).not.toContain('absolute');
  });

  it('inside the jobs package itself, points at its schemas/ relatively (as examples/ do)', () => {
    const root = empty();
    expect(schemaReference(join(root, 'examples/adverts'), 'create', root)).toEqual({ reference: '../../schemas/advert.schema.json', kind: 'package' });
    expect(schemaReference(root, 'config', root)).toEqual({ reference: 'schemas/config.schema.json', kind: 'package' });
    expect(schemaReference(dirname(root), 'create', root)).toEqual({ reference: join(root, 'schemas/advert.schema.json'), kind: 'absolute' });
    // The examples in this repository follow the same rule.
    expect(MODELINE.exec(read(join(ROOT, 'examples/adverts/backend-engineer.yaml')))?.[1]).toBe(
      schemaReference(join(ROOT, 'examples/adverts'), 'create').reference,
    );
  });

  it('with --config <file>, writes a commented project config that jobs reads, constants and all', async () => {
    const dir = empty();
    // The service's URL is what the user chose (--base-url): written active; placeholders stay comments.
    const r = await runJobs(['init', '--config', '.jobsrc.yaml', '--base-url', 'https://jobs.example.com/api'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const text = read(join(dir, '.jobsrc.yaml'));
    expect(MODELINE.exec(text)?.[1]).toBe(join(ROOT, 'schemas/config.schema.json'));
    expect(text).not.toMatch(/^\s*token:/m); // a token is never written, only shown commented out

    const list = await runJobs(['--json', 'config', 'list'], { cwd: dir });
    expect(list.code, list.stderr).toBe(0);
    const settings = JSON.parse(list.stdout).settings as { key: string; value: unknown }[];
    expect(settings.find((s) => s.key === 'base_url')?.value).toBe('https://jobs.example.com/api');

    // The template's constants, once uncommented, work in an advert: contract_id: permanent is id 1.
    writeFileSync(
      join(dir, '.jobsrc.yaml'),
      text.replace(/^# constants:\n(# {3}.*\n)+/m, (block) => block.replace(/^# /gm, '')),
    );
    await runJobs(['init', 'advert.yaml'], { cwd: dir });
    writeFileSync(join(dir, 'advert.yaml'), read(join(dir, 'advert.yaml')).replace('contract_id: 1', 'contract_id: permanent'));
    const check = await runJobs(['validate', 'advert.yaml'], { cwd: dir });
    expect(check.code, check.stdout).toBe(0);
  });

  it('refuses an advert file and --config together (exit 2)', async () => {
    const r = await runJobs(['init', 'a.yaml', '--config', '.jobsrc.yaml'], { cwd: empty() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^jobs: init writes one file: an advert to a\.yaml, or a config to \.jobsrc\.yaml \(--config\), not both\n/);
  });
});

describe('jobs schema', () => {
  it.each([
    [[], 'advert.schema.json'],
    [['create'], 'advert.schema.json'],
    [['update'], 'advert-update.schema.json'],
    [['event'], 'event.schema.json'],
    [['config'], 'config.schema.json'],
  ])('jobs schema %j prints schemas/%s as shipped', async (args, file) => {
    const r = await runJobs(['schema', ...args]);
    expect(r.code).toBe(0);
    const shipped = read(join(ROOT, 'schemas', file));
    expect(r.stdout).toBe(shipped.endsWith('\n') ? shipped : `${shipped}\n`);
    const path = await runJobs(['schema', ...args, '--path']);
    expect(path.stdout).toBe(`${join(ROOT, 'schemas', file)}\n`);
  });

  it('refuses an unknown kind with the choices (exit 2)', async () => {
    const r = await runJobs(['schema', 'advert']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'advert' is invalid for argument 'kind'. Allowed choices are create, update, event, config.");
  });
});
