import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConvertError, markdownToYaml, yamlToMarkdown, yamlToMarkdownParts } from '../../../src/core/adverts/convert.js';
import { parseAdverts } from '../../../src/core/adverts/parse.js';
import { HOSTILE } from '../../support/markdown-adverts.js';

const EXAMPLES = resolve(import.meta.dirname, '../../../examples/adverts');

const valueOf = (file: string, text: string) => {
  const read = parseAdverts(file, text);
  expect(read.problems).toEqual([]);
  return read.adverts[0]!.value;
};

describe('convert YAML <-> Markdown', () => {
  const cases: [string, string][] = [
    ...['backend-engineer.yaml', 'support-specialists.yaml'].map((name) => [name, readFileSync(join(EXAMPLES, name), 'utf8')] as [string, string]),
    ['hostile.yaml', HOSTILE],
  ];
  for (const [name, yaml] of cases) {
    it(`${name}: to Markdown and back, without losing a field`, () => {
      let read;
      try {
        read = yamlToMarkdown(name, 'a.md', yaml);
      } catch (error) {
        // A multi-document example is refused, with the reason.
        expect((error as ConvertError).message).toMatch(/holds \d+ adverts and a Markdown advert is one/);
        return;
      }
      const markdown = read.text;
      expect(valueOf('a.md', markdown)).toEqual(valueOf(name, yaml));
      const back = markdownToYaml('a.md', 'b.yaml', markdown);
      expect(valueOf('b.yaml', back.text)).toEqual(valueOf(name, yaml));
      // And again: Markdown -> YAML -> Markdown gives the same Markdown.
      expect(yamlToMarkdown('b.yaml', 'c.md', back.text).text).toBe(markdown);
    });
  }

  it('keeps comments and quoting of the front matter, drops the YAML modeline, keeps --- in the body', () => {
    const { text } = yamlToMarkdown('h.yaml', 'h.md', HOSTILE);
    expect(text).toContain('# a comment kept');
    expect(text).not.toContain('yaml-language-server');
    expect(text).toContain('reference: "HOST-1: the \\"odd\\" one"');
    expect(text).toContain('\n---\nkey: value that looks like YAML\n---\n');
    expect(text.startsWith('---\n# a comment kept\n')).toBe(true);
  });

  it('keeps the other fields byte for byte (a folded block stays folded as written)', () => {
    const yaml = readFileSync(join(EXAMPLES, 'backend-engineer.yaml'), 'utf8');
    const { text } = yamlToMarkdown('b.yaml', 'b.md', yaml);
    const fields = yaml
      .split('\n')
      .slice(1)
      .filter(
        (line, i, all) =>
          !/^job_description:/.test(line) && !(i > 0 && /^job_description:/.test(all[i - 1]!)) && !(i > 1 && /^job_description:/.test(all[i - 2]!)),
      );
    expect(text).toBe(
      `---\n${fields.join('\n')}---\n\nYou will design and run the services that plan our robots' routes: Node.js, PostgreSQL, message queues and a lot of measuring.\n`,
    );
  });

  it('converts a JSON advert (its fields written as YAML)', () => {
    const json = '{\n  "reference": "J-1",\n  "title": "T: x",\n  "seniority": 3,\n  "job_description": "Line one\\nLine two\\n"\n}\n';
    const r = yamlToMarkdown('j.json', 'j.md', json);
    expect(valueOf('j.md', r.text)).toEqual(valueOf('j.json', json));
    expect(r.text.endsWith('---\n\nLine one\nLine two\n')).toBe(true);
  });

  it('says when the job description is sent with other whitespace (a plain scalar gains a final line break)', () => {
    const r = yamlToMarkdown('a.yaml', 'a.md', 'reference: A\njob_description: Short text\n');
    expect(r.text).toBe('---\nreference: A\n---\n\nShort text\n');
    expect(r.notes).toEqual(['job_description is sent as the Markdown body reads: it gains a final line break (docs/adverts.md)']);
  });

  it('Markdown to YAML keeps the front matter as written and adds a modeline when asked', () => {
    const r = markdownToYaml('a.md', 'a.yaml', '---\n# kept\nreference: A\n---\n\n  indented first line\nsecond\n', '../advert.schema.json');
    expect(r.text).toBe(
      '# yaml-language-server: $schema=../advert.schema.json\n# kept\nreference: A\njob_description: |2\n    indented first line\n  second\n',
    );
  });

  it('splits a file of several adverts into one Markdown advert each, named by reference, comments kept with their document', () => {
    const yaml = readFileSync(join(EXAMPLES, 'support-specialists.yaml'), 'utf8');
    const parts = yamlToMarkdownParts('s.yaml', yaml);
    expect(parts.map((p) => p.name)).toEqual(['ACME-0043', 'ACME-0044']);
    const values = parseAdverts('s.yaml', yaml).adverts.map((a) => ({ ...a.value, job_description: `${String(a.value.job_description)}\n` }));
    expect(parts.map((p) => valueOf('p.md', p.text))).toEqual(values);
    expect(parts[0]!.text.startsWith('---\n# Two adverts in one file, as two YAML documents.\nreference: ACME-0043\n')).toBe(true);
    expect(parts.map((p) => p.notes)).toEqual([[expect.stringContaining('gains a final line break')], [expect.stringContaining('gains a final line break')]]);
    expect(() => yamlToMarkdownParts('d.yaml', '%YAML 1.2\n---\nreference: A\njob_description: x\n---\nreference: B\njob_description: y\n')).toThrow(
      'cannot be told apart line by line',
    );
  });

  it('refuses what it cannot carry over: several adverts, no job description, a file that does not read', () => {
    expect(() => yamlToMarkdown('a.yaml', 'a.md', 'reference: A\njob_description: x\n---\nreference: B\njob_description: y\n')).toThrow(
      'the file holds 2 adverts and a Markdown advert is one',
    );
    expect(() => yamlToMarkdown('a.yaml', 'a.md', 'reference: A\n')).toThrow('the advert has no job_description text');
    expect(() => yamlToMarkdown('a.yaml', 'a.md', 'reference: [\n')).toThrow(ConvertError);
    expect(() => markdownToYaml('a.md', 'a.yaml', 'no front matter\n')).toThrow('does not read as a Markdown advert');
  });

  it('resolves an alias of job_description (its anchor goes with the field)', () => {
    const base = readFileSync(resolve(import.meta.dirname, '../../../examples/adverts/backend-engineer.yaml'), 'utf8');
    const aliased = base.replace(/^company_description:.*(\n[ \t]+.*)*\n/m, '').replace(/^job_description:/m, 'company_description: *jd\njob_description:');
    const anchored = `${aliased.replace(/^job_description: */m, 'job_description: &jd ').replace(/^company_description: \*jd\n/m, '')}company_description: *jd\n`;
    expect(anchored).toMatch(/^job_description: &jd /m);
    expect(anchored).toMatch(/^company_description: \*jd$/m);
    const md = yamlToMarkdown('a.yaml', 'a.md', anchored);
    expect(md.text).not.toContain('*jd');
    expect(md.adverts[0]!.company_description).toBe(md.adverts[0]!.job_description);
  });

  it('names the parts of a file by number when two references would give one name, ignoring case', () => {
    const doc = (reference: string) =>
      readFileSync(resolve(import.meta.dirname, '../../../examples/adverts/backend-engineer.yaml'), 'utf8').replace(
        /^reference: .*$/m,
        `reference: ${reference}`,
      );
    expect(yamlToMarkdownParts('a.yaml', `${doc('X-1')}---\n${doc('Y-1')}`).map((p) => p.name)).toEqual(['X-1', 'Y-1']);
    expect(yamlToMarkdownParts('a.yaml', `${doc('"2"')}---\n${doc('"has space"')}`).map((p) => p.name)).toEqual(['1', '2']);
    expect(yamlToMarkdownParts('a.yaml', `${doc('ACME-1')}---\n${doc('acme-1')}`).map((p) => p.name)).toEqual(['1', '2']);
  });
});
