/**
 * validate of Markdown adverts (built binary): findings at the .md file's lines in every format, a
 * folder mixing YAML and Markdown, and a folder of 1,200 Markdown adverts through the worker threads.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';
import { advertYaml } from '../commands/harness.js';
import { markdownAdvert } from '../support/markdown-adverts.js';
import { realisticAdvertYaml } from '../../bench/generate.mjs';
import { yamlToMarkdown } from '../../src/core/adverts/convert.js';
import { tempDir } from '../support/temp-dirs.js';

function folder(files: Record<string, string>): string {
  const dir = tempDir('jobs-md-validate-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('jobs validate of Markdown adverts (built binary)', () => {
  const dir = folder({
    'a.yaml': advertYaml('V-1'),
    // location.country US without a state: a finding in the front matter, line 14 of the .md file.
    'b.md': markdownAdvert('V-2', '\nThe job.\n').replace('country: NO', 'country: US'),
    'c.md': markdownAdvert('V-3', '\n\n   \n').replace('title: Engineer', 'title: Engineer\njob_description: In the front matter too.'),
    'd.md': markdownAdvert('V-4', 'Text.\n').slice('---\n'.length),
    'e.md': markdownAdvert('V-5', 'Body.\n').replace('title: Engineer\n', 'title: Engineer\njob_description: twice\n'),
    'f.md': '---\nreference: V-6\n',
    'README.md': '# Adverts\n',
  });

  it('reports each finding at its line of the .md file and exits 3', async () => {
    const r = await jobs(['validate', '.'], { cwd: dir });
    expect(r.stdout.split('\n')).toEqual([
      '✖ b.md:14:3: location.state: is missing: it is required because location.country is US (also for CA, MX) [missing]',
      '✖ c.md:4:1: job_description is in the front matter: in a Markdown advert the body is the job description; move its text below the closing --- (line 19)',
      "✖ d.md:1:1: no front matter (line 1 is not ---): a Markdown advert starts with a --- line, then its fields in YAML (reference: ..., title: ...), then a --- line; the job description follows. Add them, or see 'jobs-cli init --markdown'",
      '✖ e.md:4:1: job_description is given twice: in the front matter (line 4) and by the body (line 20); remove it from the front matter: the body is the job description',
      '✖ f.md:1:1: the front matter opened here is never closed: add a --- line after its last field, before the job description',
      '',
    ]);
    expect(r.stderr).toBe('✖ 5 errors: 2 adverts in 6 files checked, 1 invalid, 4 Markdown adverts malformed\n');
    expect(r.code).toBe(3);
  });

  it('gives the same lines as GitHub annotations and SARIF', async () => {
    const github = await jobs(['validate', 'b.md', 'e.md', '--output', 'github'], { cwd: dir });
    expect(github.stdout).toContain('::error file=b.md,line=14,col=3,title=jobs%3A missing::');
    expect(github.stdout).toContain('::error file=e.md,line=4,col=1,title=jobs%3A job_description_twice::');
    const sarif = JSON.parse((await jobs(['validate', 'b.md', '--output', 'sarif'], { cwd: dir })).stdout) as {
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[];
    };
    const where = sarif.runs[0]!.results[0]!.locations[0]!.physicalLocation;
    expect([where.artifactLocation.uri, where.region.startLine]).toEqual(['b.md', 14]);
    const junit = await jobs(['validate', 'b.md', '--output', 'junit'], { cwd: dir });
    expect(junit.stdout).toContain('b.md:14:3');
  });

  it('checks 1,200 Markdown adverts in worker threads as one thread does', async () => {
    expect(existsSync(join(ROOT, 'dist/validate-worker.cjs'))).toBe(true);
    const many = tempDir('jobs-md-many-');
    const lineOf = (text: string, pattern: RegExp) => text.split('\n').findIndex((line) => pattern.test(line)) + 1;
    let seniorityLine = 0;
    let closingLine = 0;
    for (let i = 0; i < 1200; i++) {
      let text = yamlToMarkdown('a.yaml', 'a.md', realisticAdvertYaml(i, { bullets: i % 3 === 0 })).text;
      if (i === 700) {
        text = text.replace(/^seniority: \d+$/m, 'seniority: -1');
        seniorityLine = lineOf(text, /^seniority: -1$/);
      }
      if (i === 900) {
        text = `${text.split('\n---\n')[0]}\n---\n\n`;
        closingLine = text.split('\n').length - 2;
      }
      writeFileSync(join(many, `ad-${String(i).padStart(4, '0')}.md`), text);
    }
    writeFileSync(join(many, 'README.md'), '# 1,200 adverts\n');
    const runs = await Promise.all(['0', '2'].map((n) => jobs(['validate', '.'], { cwd: many, env: isolatedEnv({ JOBS_WORKERS: n }), timeoutMs: 90_000 })));
    expect(seniorityLine).toBeGreaterThan(10);
    for (const r of runs) {
      expect(r.stdout).toBe(
        [
          `✖ ad-0700.md:${seniorityLine}:12: seniority: must be at least 0 [less_than:0]`,
          `✖ ad-0900.md:${closingLine}:1: the body is empty: write the job description below the front matter's closing --- (line ${closingLine})`,
          '',
        ].join('\n'),
      );
      expect(r.stderr).toBe('✖ 2 errors: 1199 adverts in 1200 files checked, 1 invalid, 1 Markdown advert malformed\n');
      expect(r.code).toBe(3);
    }
  }, 120_000);
});
