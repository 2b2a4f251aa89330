import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAdverts } from '../../../src/core/adverts/parse.js';
import { bodyText, splitMarkdown } from '../../../src/core/adverts/markdown.js';
import { isAdvertFile } from '../../../src/core/adverts/files.js';
import { loadAdverts } from '../../../src/core/adverts/load.js';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support/temp-dirs.js';

const noStdin = () => ({ [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true as const, value: undefined }) }) });

const ADVERT = [
  '---',
  'reference: ACME-1',
  'title: Engineer',
  'location:',
  '  country: NO',
  '---',
  '',
  'We build **robots**.',
  '',
  '  - tabs\there',
  '',
  '',
].join('\n');

describe('splitMarkdown', () => {
  it('gives the front matter, its line offset, and the body as sent', () => {
    const parts = splitMarkdown(ADVERT);
    expect(parts).toEqual({
      frontMatter: 'reference: ACME-1\ntitle: Engineer\nlocation:\n  country: NO\n',
      frontMatterOffset: 1,
      closingLine: 6,
      body: 'We build **robots**.\n\n  - tabs\there\n',
      bodyLine: 8,
    });
  });

  it('reads past a byte order mark', () => {
    expect(splitMarkdown('\ufeff---\nreference: A\n---\nText\n')).toMatchObject({ frontMatter: 'reference: A\n', body: 'Text\n' });
  });

  it('sends CRLF line breaks as \\n and keeps a --- inside the body', () => {
    const parts = splitMarkdown('---\r\nreference: A\r\n---\r\nOne\r\n---\r\nTwo  \r\n');
    expect(parts).toMatchObject({ frontMatter: 'reference: A\n', body: 'One\n---\nTwo  \n', bodyLine: 4 });
  });

  it('ends the body with one line break, whether the file ends with none or several', () => {
    expect(bodyText('Text')).toBe('Text\n');
    expect(bodyText('\n\n Text\n\n\n')).toBe(' Text\n');
    expect(bodyText('\n  \n')).toBe('');
  });

  it('keeps body lines of only U+00A0 or U+3000 (text, not blank): only spaces and tabs are blank', () => {
    expect(bodyText('\u00a0\nText.\n\u3000\n \t\n')).toBe('\u00a0\nText.\n\u3000\n');
  });

  it('says when the front matter is missing or not closed', () => {
    expect(splitMarkdown('reference: A\n---\nText\n')).toMatchObject({ line: 1, code: 'front_matter_missing' });
    expect(splitMarkdown('')).toMatchObject({ line: 1, code: 'front_matter_missing', message: expect.stringContaining('the file is empty') });
    expect(splitMarkdown('---\nreference: A\nText\n')).toMatchObject({ line: 1, code: 'front_matter_unclosed' });
  });
});

describe('a Markdown advert read', () => {
  it('is the front matter fields plus the body as job_description, at the .md file lines', () => {
    const { adverts, problems } = parseAdverts('a.md', ADVERT);
    expect(problems).toEqual([]);
    expect(adverts[0]!.value).toEqual({
      reference: 'ACME-1',
      title: 'Engineer',
      location: { country: 'NO' },
      job_description: 'We build **robots**.\n\n  - tabs\there\n',
    });
    expect(adverts[0]!.locate(['title'])).toEqual({ line: 3, column: 8 });
    expect(adverts[0]!.locate(['location', 'country'])).toEqual({ line: 5, column: 12 });
    expect(adverts[0]!.locate(['job_description'])).toEqual({ line: 8, column: 1 });
  });

  it('reads the same through the yaml package when the fast reader bails out (anchors)', () => {
    const { adverts, problems } = parseAdverts('a.md', '---\ncity: &c Oslo\nlocation:\n  city: *c\n---\nText\n');
    expect(problems).toEqual([]);
    expect(adverts[0]!.value).toEqual({ city: 'Oslo', location: { city: 'Oslo' }, job_description: 'Text\n' });
    expect(adverts[0]!.locate(['location', 'city'])).toEqual({ line: 4, column: 9 });
  });

  it('gives a YAML error in the front matter at its line of the .md file', () => {
    const { problems } = parseAdverts('a.md', '---\nreference: A\ntitle: "open\n---\nText\n');
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]!.position!.line).toBeGreaterThanOrEqual(3);
  });

  it('refuses an empty body at the closing line, and job_description in the front matter at its line', () => {
    expect(parseAdverts('a.md', '---\nreference: A\n---\n\n  \n').problems).toEqual([
      { file: 'a.md', position: { line: 3, column: 1 }, code: 'empty_body', message: expect.stringContaining('the body is empty') },
    ]);
    const twice = parseAdverts('a.md', '---\nreference: A\njob_description: x\n---\nText\n').problems;
    expect(twice).toEqual([
      {
        file: 'a.md',
        position: { line: 3, column: 1 },
        code: 'job_description_twice',
        message: expect.stringContaining('given twice: in the front matter (line 3) and by the body (line 5)'),
      },
    ]);
    expect(parseAdverts('a.md', '---\njob_description: x\n---\n').problems[0]).toMatchObject({
      code: 'job_description_twice',
      message: expect.stringContaining('move its text below the closing --- (line 3)'),
    });
  });

  it('a YAML file is read as before (a .yaml with front-matter-like text is YAML documents)', () => {
    expect(parseAdverts('a.yaml', '---\nreference: A\n---\nreference: B\n').adverts.map((a) => a.value.reference)).toEqual(['A', 'B']);
  });
});

describe('Markdown files in a folder', () => {
  it('takes .md adverts and passes over README.md and other repository documents', () => {
    expect(isAdvertFile('backend.md')).toBe(true);
    expect(isAdvertFile('Backend.MD')).toBe(true);
    for (const name of ['README.md', 'readme.md', 'README.de.md', 'CHANGELOG.md', 'CONTRIBUTING.md', 'LICENSE.md', 'CODE_OF_CONDUCT.md'])
      expect(isAdvertFile(name)).toBe(false);
  });

  it('loads a folder mixing YAML and Markdown, a .md without front matter an error at line 1', async () => {
    const dir = tempDir('jobs-md-');
    try {
      writeFileSync(join(dir, 'a.yaml'), 'reference: A\njob_description: yaml\n');
      writeFileSync(join(dir, 'b.md'), '---\nreference: B\n---\nmarkdown\n');
      writeFileSync(join(dir, 'README.md'), '# Our adverts\n');
      writeFileSync(join(dir, 'notes.md'), '# Notes\n');
      const loaded = await loadAdverts([dir], { cwd: dir, stdin: noStdin });
      expect(loaded.adverts.map((a) => [a.file, a.value.job_description])).toEqual([
        ['a.yaml', 'yaml'],
        ['b.md', 'markdown\n'],
      ]);
      expect(loaded.problems).toEqual([
        { file: 'notes.md', position: { line: 1, column: 1 }, code: 'front_matter_missing', message: expect.stringContaining('no front matter') },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('any text read as a Markdown advert', () => {
  it('gives adverts or problems, never an exception, every position inside the file', () => {
    const line = fc.oneof(
      fc.constantFrom('---', '--- ', '...', '', '  ', 'reference: A', 'title: "x', 'job_description: y', '- item', '\t', 'a: [', '# c'),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const text = lines.join(eol);
        const { adverts, problems } = parseAdverts('x.md', text);
        const count = text.split('\n').length;
        for (const p of problems) expect(p.position!.line >= 1 && p.position!.line <= count, JSON.stringify(p)).toBe(true);
        for (const a of adverts) {
          expect(typeof a.value.job_description).toBe('string');
          for (const path of [['job_description'], ['reference'], ['title'], ['nope']]) expect(a.locate(path).line).toBeLessThanOrEqual(count);
        }
        expect(adverts.length + problems.length).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });
});
