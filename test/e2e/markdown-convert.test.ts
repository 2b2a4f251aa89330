/**
 * jobs convert end to end (built binary, sandbox on 127.0.0.1): a folder synced as YAML, moved to
 * Markdown in one command, then back, is the same adverts on the service (nothing to sync); convert
 * never overwrites without --force and reports what it could not convert.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobs, ROOT } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { advertYaml } from '../commands/harness.js';
import { HOSTILE } from '../support/markdown-adverts.js';

describe('jobs convert (built binary)', () => {
  it('moves a synced folder to Markdown and back without changing an advert on the service', async () => {
    const s = await liveSandbox();
    const dir = mkdtempSync(join(tmpdir(), 'jobs-md-convert-'));
    cpSync(join(ROOT, 'examples/adverts/backend-engineer.yaml'), join(dir, 'backend-engineer.yaml'));
    // The hostile advert, made valid: block scalars, colons, quotes, tabs, odd Unicode, --- in the text.
    const hostile = `${advertYaml('HOST-1').replace(/^(reference|title|organization_name|company_description|job_description|salary_text|location| {2}country| {2}city):.*\n/gm, '')}${HOSTILE.replace(/^reference: .*$/m, 'reference: "HOST-1"').replace(/^skills: .*$/m, 'skills: [a, "b, c"]')}`;
    writeFileSync(join(dir, 'hostile.yaml'), hostile);
    writeFileSync(join(dir, 'README.md'), '# Adverts\n');
    const synced = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(synced.stderr).toContain('✔ in sync: 2 created');

    const moved = await jobs(['convert', '.', '--remove'], { cwd: dir, env: s.env });
    expect(moved.stderr).toBe('✔ backend-engineer.yaml -> backend-engineer.md\n✔ hostile.yaml -> hostile.md\n✔ 2 converted\n');
    expect(moved.code).toBe(0);
    expect(readdirSync(dir).filter((f) => !f.startsWith('.')).sort()).toEqual(['README.md', 'backend-engineer.md', 'hostile.md']);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# Adverts\n');

    s.log.length = 0;
    const plan = await jobs(['sync', '.', '--dry-run', '--detailed-exitcode'], { cwd: dir, env: s.env });
    expect(plan.stdout).toBe('');
    expect(plan.code).toBe(0);

    const back = await jobs(['convert', '.', '--to', 'yaml', '--remove'], { cwd: dir, env: s.env });
    expect(back.code, back.stderr).toBe(0);
    expect(readdirSync(dir).filter((f) => !f.startsWith('.')).sort()).toEqual(['README.md', 'backend-engineer.yaml', 'hostile.yaml']);
    const again = await jobs(['sync', '.', '--dry-run', '--detailed-exitcode'], { cwd: dir, env: s.env });
    expect(again.stdout).toBe('');
    expect(again.code).toBe(0);
    expect(s.log).toEqual([]);
  });

  it('never overwrites without --force, refuses a file of several adverts, and says why (exit 3)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jobs-md-convert-'));
    cpSync(join(ROOT, 'examples/adverts'), dir, { recursive: true });
    writeFileSync(join(dir, 'backend-engineer.md'), 'mine\n');
    const r = await jobs(['convert', '.'], { cwd: dir });
    expect(r.stderr).toBe(
      [
        '✖ backend-engineer.md already exists; nothing was written (pass --force to overwrite it)',
        '✖ support-specialists.yaml:1:1: the file holds 2 adverts and a Markdown advert is one: split them into a file each first',
        '✖ 0 converted, 1 already Markdown, 1 not written (the new name is taken), 1 could not be converted',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(3);
    expect(readFileSync(join(dir, 'backend-engineer.md'), 'utf8')).toBe('mine\n');
    expect(existsSync(join(dir, 'support-specialists.md'))).toBe(false);

    const forced = await jobs(['convert', 'backend-engineer.yaml', '--force'], { cwd: dir });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, 'backend-engineer.md'), 'utf8')).toMatch(/^---\n# A complete advert/);
    expect(existsSync(join(dir, 'backend-engineer.yaml'))).toBe(true);
    expect(forced.stderr).toMatch(/the sources are still there, with the same references: remove them before '\S+ sync' \(or convert with --remove\)/);
  });
});
