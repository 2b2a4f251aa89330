/** jobs init --markdown: a Markdown advert that is valid as written. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runJobs } from '../../../commands/harness.js';
import { parseAdverts } from '../../../../src/core/adverts/parse.js';
import { tempDir } from '../../../support/temp-dirs.js';

const empty = () => tempDir('jobs-init-md-');

describe('jobs init --markdown', () => {
  it('writes advert.md: front matter and a body, valid as written', async () => {
    const dir = empty();
    const r = await runJobs(['init', '--markdown'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("✔ wrote advert.md\n  next: edit it, then run 'jobs validate advert.md'\n");
    const text = readFileSync(join(dir, 'advert.md'), 'utf8');
    expect(text.startsWith('---\n# A job advert')).toBe(true);
    const advert = parseAdverts('advert.md', text).adverts[0]!;
    expect(advert.value.job_description).toBe(
      '## The job\n\nWhat the job is: the team, the work, the tools, what a first year looks like.\n\n## You bring\n\n- What a candidate needs to bring.\n',
    );
    expect(advert.value.reference).toMatch(/^ADVERT-[0-9A-HJKMNP-TV-Z]{6}$/);
    const check = await runJobs(['validate', 'advert.md'], { cwd: dir });
    expect(check.stderr).toBe('✔ 1 advert in 1 file: all valid\n');
    expect(check.code).toBe(0);
  });

  it('writes Markdown for a file named .md without the flag, and says so with --json', async () => {
    const dir = empty();
    const r = await runJobs(['--json', 'init', 'adverts/a.md'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: 'adverts/a.md', kind: 'advert', format: 'markdown' });
    expect(readFileSync(join(dir, 'adverts/a.md'), 'utf8')).toMatch(/^---\n/);
  });

  it('refuses --markdown with a YAML name, and never overwrites without --force (exit 2)', async () => {
    const dir = empty();
    const wrong = await runJobs(['init', '--markdown', 'a.yaml'], { cwd: dir });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--markdown writes a Markdown advert, but a.yaml is named as YAML or JSON; name it .md, or drop --markdown');
    expect(existsSync(join(dir, 'a.yaml'))).toBe(false);
    expect((await runJobs(['init', 'a.md'], { cwd: dir })).code).toBe(0);
    const again = await runJobs(['init', 'a.md'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('a.md already exists; nothing was written');
  });

  it('prints a Markdown advert with -', async () => {
    const r = await runJobs(['init', '--markdown', '-'], { cwd: empty() });
    expect(r.stdout).toMatch(/^---\n[\s\S]*\n---\n\n## The job\n/);
  });
});
