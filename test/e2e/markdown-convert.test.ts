/**
 * jobs convert end to end (built binary, sandbox on 127.0.0.1): a folder synced as YAML, moved to
 * Markdown in one command, then back, is the same adverts on the service (nothing to sync); convert
 * never overwrites without --force and reports what it could not convert.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobs, ROOT } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { advertYaml } from '../commands/harness.js';
import { HOSTILE } from '../support/markdown-adverts.js';
import { tempDir } from '../support/temp-dirs.js';

describe('jobs convert (built binary)', () => {
  it('moves a synced folder to Markdown and back without changing an advert on the service', async () => {
    const s = await liveSandbox();
    const dir = tempDir('jobs-md-convert-');
    cpSync(join(ROOT, 'examples/adverts'), dir, { recursive: true });
    // The hostile advert, made valid: block scalars, colons, quotes, tabs, odd Unicode, --- in the text.
    const hostile = `${advertYaml('HOST-1').replace(/^(reference|title|organization_name|company_description|job_description|salary_text|location| {2}country| {2}city):.*\n/gm, '')}${HOSTILE.replace(/^reference: .*$/m, 'reference: "HOST-1"').replace(/^skills: .*$/m, 'skills: [a, "b, c"]')}`;
    writeFileSync(join(dir, 'hostile.yaml'), hostile);
    writeFileSync(join(dir, 'README.md'), '# Adverts\n');
    const synced = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(synced.stderr).toContain('✔ in sync: 4 created');

    const moved = await jobs(['convert', '.', '--remove'], { cwd: dir, env: s.env });
    expect(moved.stderr).toBe(
      [
        '✔ backend-engineer.yaml -> backend-engineer.md',
        '✔ hostile.yaml -> hostile.md',
        '✔ support-specialists.yaml -> support-specialists-ACME-0043.md, support-specialists-ACME-0044.md',
        '  support-specialists-ACME-0043.md: job_description is sent as the Markdown body reads: it gains a final line break (docs/adverts.md)',
        '  support-specialists-ACME-0044.md: job_description is sent as the Markdown body reads: it gains a final line break (docs/adverts.md)',
        '✔ 3 converted',
        '',
      ].join('\n'),
    );
    expect(moved.code).toBe(0);
    expect(
      readdirSync(dir)
        .filter((f) => !f.startsWith('.'))
        .sort(),
    ).toEqual(['README.md', 'backend-engineer.md', 'hostile.md', 'support-specialists-ACME-0043.md', 'support-specialists-ACME-0044.md']);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# Adverts\n');

    // The two one-line job descriptions gained their final line break; nothing else changed.
    s.log.length = 0;
    const plan = await jobs(['sync', '.', '--dry-run', '--detailed-exitcode'], { cwd: dir, env: s.env });
    expect(plan.stdout).toBe(
      '~ ACME-0043  support-specialists-ACME-0043.md  (job_description)\n~ ACME-0044  support-specialists-ACME-0044.md  (job_description)\n',
    );
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
    s.log.length = 0;

    const back = await jobs(['convert', '.', '--to', 'yaml', '--remove'], { cwd: dir, env: s.env });
    expect(back.code, back.stderr).toBe(0);
    expect(
      readdirSync(dir)
        .filter((f) => !f.startsWith('.'))
        .sort(),
    ).toEqual(['README.md', 'backend-engineer.yaml', 'hostile.yaml', 'support-specialists-ACME-0043.yaml', 'support-specialists-ACME-0044.yaml']);
    const again = await jobs(['sync', '.', '--dry-run', '--detailed-exitcode'], { cwd: dir, env: s.env });
    expect(again.stdout).toBe('');
    expect(again.code).toBe(0);
    expect(s.log).toEqual([]);
  });

  it('never overwrites without --force (exit 2), says why a file cannot be converted (exit 3)', async () => {
    const dir = tempDir('jobs-md-convert-');
    cpSync(join(ROOT, 'examples/adverts'), dir, { recursive: true });
    writeFileSync(join(dir, 'backend-engineer.md'), 'mine\n');
    writeFileSync(join(dir, 'support-specialists-ACME-0044.md'), 'mine too\n');
    const r = await jobs(['convert', 'backend-engineer.yaml', 'support-specialists.yaml'], { cwd: dir });
    expect(r.stderr).toBe(
      [
        '✖ backend-engineer.md already exists; nothing was written for backend-engineer.yaml (pass --force to overwrite it)',
        '✖ support-specialists-ACME-0044.md already exists; nothing was written for support-specialists.yaml (pass --force to overwrite it)',
        '✖ 0 converted, 2 not written (the new name is taken)',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(2);
    expect(readFileSync(join(dir, 'backend-engineer.md'), 'utf8')).toBe('mine\n');
    // Nothing of a file is written when one of its new names is taken.
    expect(existsSync(join(dir, 'support-specialists-ACME-0043.md'))).toBe(false);

    writeFileSync(join(dir, 'broken.yaml'), 'reference: [\n');
    const broken = await jobs(['convert', 'broken.yaml'], { cwd: dir });
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain("broken.yaml: the file does not read as adverts; fix it first ('");
    expect(existsSync(join(dir, 'broken.md'))).toBe(false);

    const forced = await jobs(['convert', 'backend-engineer.yaml', '--force'], { cwd: dir });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, 'backend-engineer.md'), 'utf8')).toMatch(/^---\n# A complete advert/);
    expect(forced.stderr).toContain('✔ wrote backend-engineer.md (from backend-engineer.yaml)\n  backend-engineer.md was overwritten (--force)\n');
    expect(existsSync(join(dir, 'backend-engineer.yaml'))).toBe(true);
    expect(forced.stderr).toMatch(/the sources are still there, with the same references: remove them before '\S+ sync' \(or convert with --remove\)/);
  });
});
