/**
 * What a hostile or careless advert does to the wording checks, through the built binary: a word's
 * line and column where the YAML escapes or folds it, or where a letter lower-cases to two; a long
 * text with a coded word or phrase repeated many thousands of times (bounded time, one finding each);
 * jobs-ignore written where it is text (a block scalar, a code fence), not a comment.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobs } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

const REST = `contract_id: 1
salary_id: 2
salary_text: 50 000 - 60 000 EUR
industry_id: 3
department_id: 4
seniority: 0
education: 0
recruiter:
  email: hr@acme.example
location:
  country: GB
  city: Somewhere
`;

/** Line 2 the title, 3 the organisation, 4 the company description, 5 on the job description. */
const advert = (descriptions: string) => `reference: W-1\ntitle: Engineer\norganization_name: ACME\n${descriptions}${REST}`;

function file(name: string, text: string): string {
  const path = join(tempDir('jobs-wording-places-'), name);
  writeFileSync(path, text);
  return path;
}

/** The place and the quoted word of each wording warning. */
const places = (stdout: string) =>
  [...stdout.matchAll(/^⚠ [^\n]*?:(\d+:\d+): [^"\n]*"([^"]+)"[^\n]*\[(wording\/[a-z-]+)\]$/gm)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);

describe('wording findings are placed at the word as written', () => {
  it('in a double-quoted scalar with escapes: the escaped word at its own column, not the next one spelt out', async () => {
    const path = file(
      'esc.yaml',
      advert('company_description: "We are comp\\u0065titive. Be competitive and dominant."\njob_description: "tab\\there, \\"we\\" lead"\n'),
    );
    const run = await jobs(['validate', '--wording', path]);
    expect(run.code).toBe(0);
    expect(places(run.stdout)).toEqual([
      '4:30 competitive wording/masculine-coded',
      '4:67 dominant wording/masculine-coded',
      '5:37 lead wording/masculine-coded',
    ]);
  });

  it('after letters that lower-case to two (İ): the column in the line as written', async () => {
    const path = file('dotted.yaml', advert('company_description: "İstanbul İİİ"\njob_description: "We are İ competitive and dominant."\n'));
    const run = await jobs(['validate', '--wording', path]);
    expect(places(run.stdout)).toEqual(['5:28 competitive wording/masculine-coded', '5:44 dominant wording/masculine-coded']);
  });

  it('in single-quoted and folded scalars', async () => {
    const path = file(
      'fold.yaml',
      advert("company_description: 'It''s a ''calm'' team\n  that wants to dominate'\njob_description: >\n  We want a\n\n  rockstar.\n"),
    );
    const run = await jobs(['validate', '--wording', path]);
    expect(places(run.stdout)).toEqual(['5:17 dominate wording/masculine-coded', '9:3 rockstar wording/condescending']);
  });
});

describe('a long text stays bounded', () => {
  it('a phrase repeated 20,000 times is one finding, in seconds; distinct coded words by the thousand each get theirs', async () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `rockstar lead${i}`).join(' ');
    const path = file('long.yaml', advert(`company_description: Robots.\njob_description: "${words}"\n`));
    const run = await jobs(['validate', '--wording', path], { timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const found = places(run.stdout);
    expect(found.filter((f) => f.includes('wording/condescending'))).toEqual(['5:19 rockstar wording/condescending']);
    expect(found.filter((f) => f.includes('wording/masculine-coded'))).toHaveLength(20_000);
    expect(found[found.length - 1]).toBe(`5:${19 + words.length - 'lead19999'.length} lead19999 wording/masculine-coded`);
  }, 70_000);
});

describe('jobs-ignore where it is text, not a comment', () => {
  it('inside a block scalar or a quoted string it silences nothing and is no comment: the findings stay, no unused-ignore', async () => {
    const path = file(
      'text.yaml',
      advert(
        'company_description: "We say # jobs-ignore wording/condescending, a ninja"\njob_description: |\n  We are competitive.\n  # jobs-ignore wording/masculine-coded\r\n  Dominant too.\n',
      ),
    );
    const run = await jobs(['validate', '--wording', path]);
    expect(run.code).toBe(0);
    expect(places(run.stdout)).toEqual([
      '4:69 ninja wording/condescending',
      '6:10 competitive wording/masculine-coded',
      '8:3 Dominant wording/masculine-coded',
    ]);
    expect(run.stdout).not.toContain('unused-ignore');
  });

  it('in Markdown: an HTML comment in a code fence or a code span is code, a # line in the body a heading; a # comment in the front matter silences', async () => {
    const md = [
      '---',
      'reference: M-1',
      'title: Chairman # jobs-ignore wording/gendered-title',
      'organization_name: ACME',
      'company_description: Robots.',
      REST.trimEnd(),
      '---',
      '',
      '```html',
      '<!-- jobs-ignore wording/masculine-coded -->',
      'forceful code',
      '```',
      '`<!-- jobs-ignore wording/condescending -->` ninja',
      '# jobs-ignore wording/ableist',
      'a crazy idea',
      '<!-- jobs-ignore wording/age-coded -->',
      'A young team.',
      '',
    ].join('\n');
    const run = await jobs(['validate', '--wording', file('a.md', md)]);
    expect(run.code).toBe(0);
    const line = (s: string) => md.split('\n').findIndex((l) => l.includes(s)) + 1;
    expect(places(run.stdout)).toEqual([
      `${line('forceful code')}:1 forceful wording/masculine-coded`,
      `${line('ninja')}:46 ninja wording/condescending`,
      `${line('crazy')}:3 crazy wording/ableist`,
    ]);
    expect(run.stdout).not.toContain('unused-ignore');
  });
});

describe('words written with invisible or decomposed characters are the words they show', () => {
  it('a decomposed umlaut (NFD), a soft hyphen, a zero-width joiner, full-width letters: found, with the alternative, at their column', async () => {
    const nfd = 'Wir sind führend.'.normalize('NFD');
    const de = advert(`company_description: Roboter.\njob_description: "${nfd}"\njobs:\n  language: de\n`);
    const en = advert('company_description: "We are compe\\u00adtitive, domi\\u200dnant and ｃｏｍｐｅｔｉｔｉｖｅ."\njob_description: Build.\n');
    const [rde, ren] = await Promise.all([jobs(['validate', '--wording', file('nfd.yaml', de)]), jobs(['validate', '--wording', file('shy.yaml', en)])]);
    expect(places(rde.stdout)).toEqual([`5:28 ${'führend'.normalize('NFD')} wording/masculine-coded`]);
    expect(rde.stdout).toContain('write "anleitend" instead');
    expect(places(ren.stdout)).toEqual(['4:30 compe\u00adtitive wording/masculine-coded', '4:49 domi\u200dnant wording/masculine-coded']);
  });
});

describe('a config with a huge allow list', () => {
  it('200,000 allowed words are made into a set once per run, not once per advert: 500 adverts in seconds, the list still applied', async () => {
    const dir = tempDir('jobs-wording-allow-');
    const words = Array.from({ length: 200_000 }, (_, i) => `    - word${i}`).join('\n');
    writeFileSync(join(dir, '.jobsrc.yaml'), `wording:\n  allow:\n${words}\n    - competitive\n`);
    for (let i = 0; i < 500; i++)
      writeFileSync(
        join(dir, `a${i}.yaml`),
        advert(`company_description: Robots.\njob_description: We are competitive and dominant.\n`).replace('reference: W-1', `reference: W-${i}`),
      );
    const run = await jobs(['validate', '--wording', '.'], { cwd: dir, timeoutMs: 10_000 });
    expect(run.code).toBe(0);
    const found = places(run.stdout);
    expect(found).toHaveLength(500);
    expect(found.every((f) => f === '5:41 dominant wording/masculine-coded')).toBe(true);
  }, 20_000);
});
