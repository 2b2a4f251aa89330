/**
 * The README is what a newcomer needs and the manual is in docs/: the README stays short and starts
 * with the two set-up commands; every relative link of the README, the docs and the benchmark
 * results leads to a file and heading that exist; the tables of exit codes and environment
 * variables in docs/ are the code's own (src/core/errors/exit-codes.ts, src/cli/help/environment.ts);
 * the index lists every page.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeTable } from '../../src/core/errors/exit-codes.js';
import { ENVIRONMENT } from '../../src/cli/help/environment.js';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
const PAGES = ['README.md', ...DOCS.map((f) => `docs/${f}`), 'bench/RESULTS.md'];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Headings outside code blocks. */
function headings(markdown: string): string[] {
  return markdown
    .replace(/^```[\s\S]*?^```$/gm, '')
    .split('\n')
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => slug(l.replace(/^#+ /, '')));
}

/** The rows of the first table after `marker`, as arrays of cells. */
function tableAfter(markdown: string, marker: string): string[][] {
  const lines = (markdown.split(marker)[1] ?? '').split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start + 2, end).map((l) =>
    l
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim()),
  );
}

describe('the README', () => {
  const readme = read('README.md');

  it('is short: at most 12 KB, with no benchmark log', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024);
    expect(readme).not.toMatch(/^\| what \| ratio \|/m);
    expect(read('bench/RESULTS.md')).toMatch(/^\| what \| ratio \| target \|$/m);
  });

  it('starts with what it is, then the two set-up commands: npm install, npm start; and names npm test and npm run test:real', () => {
    const firstBlock = /^```sh\n([\s\S]*?)^```$/m.exec(readme)?.[1];
    expect(firstBlock).toBe('npm install\nnpm start\n');
    expect(readme.indexOf('## Install and first run')).toBeLessThan(readme.indexOf('```sh'));
    expect(readme).toContain('`npm test`');
    expect(readme).toContain('`npm run test:real`');
    expect(Object.keys(JSON.parse(read('package.json')).scripts)).toEqual(expect.arrayContaining(['test', 'test:real']));
    expect(JSON.parse(read('package.json')).scripts.start).toBe('node bin/jobs.js --sandbox publish examples/adverts/');
  });

  it('explains the name: jobs beside the shell builtin, jobs-cli, shell-init', () => {
    expect(readme).toContain("## The command's name");
    expect(readme).toContain('eval "$(jobs-cli shell-init bash)"');
  });
});

describe('links', () => {
  it.each(PAGES)('every relative link of %s leads to a file, and its #anchor to a heading there', (page) => {
    const text = read(page).replace(/^```[\s\S]*?^```$/gm, '');
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    for (const link of links) {
      const [path, anchor] = link.split('#');
      const target = path ? join(ROOT, dirname(page), path) : join(ROOT, page);
      expect(existsSync(target), `${page}: ${link}`).toBe(true);
      if (anchor) {
        expect(statSync(target).isFile(), `${page}: ${link}`).toBe(true);
        expect(headings(readFileSync(target, 'utf8')), `${page}: ${link}`).toContain(anchor);
      }
    }
  });

  it('the index of docs/ lists every page', () => {
    const index = read('docs/README.md');
    for (const page of DOCS.filter((f) => f !== 'README.md')) expect(index, page).toContain(`](${page})`);
  });
});

describe('the tables in docs/ are the code', () => {
  it('docs/exit-codes.md: the exit code table is src/core/errors/exit-codes.ts', () => {
    const rows = tableAfter(read('docs/exit-codes.md'), '## Exit codes');
    expect(rows).toEqual(exitCodeTable().map((c) => [String(c.code), c.long]));
  });

  it('docs/configuration.md: the environment variables are jobs help environment', () => {
    const rows = tableAfter(read('docs/configuration.md'), '## Environment variables');
    expect(rows).toEqual(ENVIRONMENT.map(([name, meaning]) => [`\`${name}\``, meaning]));
  });
});
