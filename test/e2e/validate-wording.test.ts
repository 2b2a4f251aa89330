/**
 * `validate` checks the words adverts use (docs/wording.md) through the built binary: for English
 * and German, findings at the word's line and column with what to write instead, and none once the
 * advert is rewritten with the suggestions; each silencing form (a comment in YAML and in Markdown,
 * the config's off and allow, --no-wording) and the warning for a comment that silences nothing;
 * an unknown rule id in a comment or the config; the Austrian title rule; every output format.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const REST = `contract_id: 1
salary_id: 2
salary_text: 50 000 - 60 000 EUR
industry_id: 3
department_id: 4
seniority: 0
education: 0
recruiter:
  email: hr@acme.example
`;

const advert = (fields: string, country = 'GB') => `reference: W-1\n${fields}${REST}location:\n  country: ${country}\n  city: Somewhere\n`;

// Line 2: the title; lines 6-9 the job description (a literal block).
const CODED_EN = advert(`title: Salesman
organization_name: ACME
company_description: Robots.
job_description: |
  We want a driven rockstar to dominate the market.
  You will lead a competitive team.
  Must be a digital native; work hard, play hard.
  You bring 15+ years of Kubernetes.
`);

const REWRITTEN_EN = advert(`title: Salesperson
organization_name: ACME
company_description: Robots.
job_description: |
  We want a motivated, experienced engineer to excel in the market.
  You will guide a skilled team.
  At ease with online tools; the hours are 9 to 5, with paid overtime.
  You bring 5+ years of Kubernetes.
`);

const CODED_DE = advert(
  `title: Vertrieb
organization_name: ACME
company_description: Roboter.
job_description: |
  Du bist ehrgeizig, durchsetzungsstark und zielstrebig.
  Wir sind ein junges Team.
`,
  'DE',
);

const REWRITTEN_DE = advert(
  `title: Vertrieb
organization_name: ACME
company_description: Roboter.
job_description: |
  Du bist motiviert, überzeugend und neugierig.
  Wir sind ein Team, das gern dazulernt.
`,
  'DE',
);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-wording-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const env = (extra: Record<string, string> = {}) => {
  const e = isolatedEnv({ JOBS_TODAY: '2026-11-27', ...extra });
  dirs.push(e.HOME!);
  return e;
};

/** `line:column rule` of each warning line of the human output (stdout). */
const where = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('⚠'))
    .map((l) => `${/:(\d+:\d+): /.exec(l)![1]} ${/\[([^\]]+)\]$/.exec(l)![1]}`);

describe('validate: wording checks in English and German', () => {
  it('an English advert with coded words: each at its line and column, with what to write instead; exit 0', async () => {
    const dir = folder({ 'a.yaml': CODED_EN });
    const r = await jobs(['validate', '--wording', 'a.yaml'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    expect(where(r.stdout)).toEqual([
      '2:8 wording/gendered-title',
      '6:13 wording/masculine-coded',
      '6:20 wording/condescending',
      '6:32 wording/masculine-coded',
      '7:12 wording/masculine-coded',
      '7:19 wording/masculine-coded',
      '8:13 wording/age-coded',
      '8:29 wording/unpaid-availability',
      '9:13 wording/years-of-young-tech',
    ]);
    expect(r.stdout).toContain('a.yaml:2:8: title: "Salesman" is gendered: write "salesperson, sales representative" instead');
    expect(r.stdout).toContain(
      '"driven" is masculine-coded (4 masculine- and 0 feminine-coded words in the advert (Gaucher, Friesen & Kay 2011)): write "motivated" instead',
    );
    expect(r.stdout).toContain('asks for 15 years of a technology first released in 2014 (12 years ago)');
    expect(r.stdout).toContain('(language en, inferred from the country GB)');
    expect(r.stderr).toContain('all valid (9 warnings)');
  });

  it('the same advert rewritten with the suggestions gets none', async () => {
    const dir = folder({ 'a.yaml': REWRITTEN_EN });
    const r = await jobs(['validate', '--wording', 'a.yaml'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('⚠');
    expect(r.stderr).toContain('all valid\n');
  });

  it('a German advert (language from the country DE): coded words and an age-coded phrase, then rewritten, none', async () => {
    const coded = await jobs(['validate', '--wording', 'a.yaml'], { cwd: folder({ 'a.yaml': CODED_DE }), env: env() });
    expect(where(coded.stdout)).toEqual([
      '6:11 wording/masculine-coded',
      '6:22 wording/masculine-coded',
      '6:45 wording/masculine-coded',
      '7:16 wording/age-coded',
    ]);
    expect(coded.stdout).toContain('"durchsetzungsstark" is masculine-coded');
    expect(coded.stdout).toContain('write "überzeugend" instead (language de, inferred from the country DE)');
    const rewritten = await jobs(['validate', '--wording', 'a.yaml'], { cwd: folder({ 'a.yaml': REWRITTEN_DE }), env: env() });
    expect(rewritten.code).toBe(0);
    expect(rewritten.stdout).not.toContain('⚠');
  });

  it('a German title that names one gender is a warning outside the rules by place; (m/w/d) passes', async () => {
    const gendered = await jobs(['validate', '--wording', 'a.yaml'], {
      cwd: folder({ 'a.yaml': REWRITTEN_DE.replace('title: Vertrieb', 'title: Softwareentwickler') }),
      env: env(),
    });
    expect(gendered.code).toBe(0);
    expect(gendered.stdout).toContain('a.yaml:2:8: title: "Softwareentwickler" names one gender: write Softwareentwickler:in, or Softwareentwickler (m/w/d)');
    const marked = await jobs(['validate', '--wording', 'a.yaml'], {
      cwd: folder({ 'a.yaml': REWRITTEN_DE.replace('title: Vertrieb', 'title: Softwareentwickler (m/w/d)') }),
      env: env(),
    });
    expect(marked.stdout).not.toContain('⚠');
  });

  it('jobs.language wins over the country, and says nothing of inference', async () => {
    const text = CODED_DE.replace('location:', 'jobs:\n  language: de\nlocation:').replace('country: DE', 'country: GB');
    const r = await jobs(['validate', '--wording', 'a.yaml'], { cwd: folder({ 'a.yaml': text }), env: env() });
    expect(where(r.stdout)).toHaveLength(4);
    expect(r.stdout).not.toContain('inferred');
  });

  it('an unknown language is an error at its line', async () => {
    const text = CODED_EN.replace('location:', 'jobs:\n  language: xx\nlocation:');
    const r = await jobs(['validate', '--wording', 'a.yaml'], { cwd: folder({ 'a.yaml': text }), env: env() });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/a\.yaml:\d+:\d+: jobs\.language: .*\[inclusion\]/);
  });
});

describe('validate: silencing wording findings', () => {
  it('a YAML comment on the line or the line before silences one finding; one that silences nothing is a warning', async () => {
    const text = CODED_EN.replace('title: Salesman', 'title: Salesman # jobs-ignore wording/gendered-title').replace(
      '  You bring 15+ years of Kubernetes.',
      '  # jobs-ignore wording/years-of-young-tech\n  You bring 15+ years of Kubernetes.\n# jobs-ignore wording/ableist',
    );
    // The `#` line inside the block is text of the description, no comment: it silences nothing (and is no unused comment).
    const r = await jobs(['validate', '--wording', 'a.yaml'], { cwd: folder({ 'a.yaml': text }), env: env() });
    expect(r.code).toBe(0);
    const found = where(r.stdout);
    expect(found).not.toContain('2:8 wording/gendered-title');
    expect(found.filter((f) => f.endsWith('years-of-young-tech'))).toEqual(['10:13 wording/years-of-young-tech']);
    expect(found).toContain('11:1 wording/unused-ignore');
    expect(r.stdout).toContain(
      'a.yaml:11:1: (advert): jobs-ignore wording/ableist silences nothing: no wording/ableist finding on this line or the next; remove the comment',
    );
  });

  it('a Markdown comment in the body silences the finding on its line or the next', async () => {
    const md = `---\nreference: W-2\ntitle: Engineer\norganization_name: ACME\ncompany_description: Robots.\n${REST}location:\n  country: GB\n  city: London\n---\n\nJoin us.\n<!-- jobs-ignore wording/condescending -->\nWe want a rockstar.\nNo ninja, though. <!-- jobs-ignore wording/age-coded -->\n`;
    const r = await jobs(['validate', '--wording', 'a.md'], { cwd: folder({ 'a.md': md }), env: env() });
    expect(r.code).toBe(0);
    const lines = md.split('\n');
    const ninja = lines.findIndex((l) => l.startsWith('No ninja')) + 1;
    expect(where(r.stdout)).toEqual([`${ninja}:4 wording/condescending`, `${ninja}:19 wording/unused-ignore`]);
  });

  it('an unknown rule id in a comment is an error naming where, with the nearest id', async () => {
    const text = CODED_EN.replace('title: Salesman', 'title: Salesman # jobs-ignore wording/gendered-titel');
    const r = await jobs(['validate', '--wording', 'a.yaml'], { cwd: folder({ 'a.yaml': text }), env: env() });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('a.yaml:2:17: jobs-ignore wording/gendered-titel: no wording rule has this id; did you mean wording/gendered-title?');
  });

  it("the config's off and allow lower findings for a project; an unknown id there is a config error", async () => {
    const dir = folder({
      'a.yaml': CODED_EN,
      '.jobsrc.yaml': 'wording:\n  off: [wording/masculine-coded, wording/years-of-young-tech]\n  allow: [rockstar, salesman]\n',
    });
    const r = await jobs(['validate', '--wording', 'a.yaml'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    expect(where(r.stdout)).toEqual(['8:13 wording/age-coded', '8:29 wording/unpaid-availability']);
    const bad = folder({ 'a.yaml': CODED_EN, '.jobsrc.yaml': 'wording:\n  off: [wording/masculin-coded]\n' });
    const e = await jobs(['validate', '--wording', 'a.yaml'], { cwd: bad, env: env() });
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('.jobsrc.yaml');
    expect(e.stderr).toContain('wording');
  });

  it('without --wording none are checked (off by default: they cost about 1.5x, docs/wording.md); --no-wording says so for one run', async () => {
    for (const args of [['a.yaml'], ['--no-wording', 'a.yaml'], ['--wording', '--no-wording', 'a.yaml']]) {
      const r = await jobs(['validate', ...args], { cwd: folder({ 'a.yaml': CODED_EN }), env: env() });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('⚠');
    }
  });
});

describe('validate: wording on worker threads', () => {
  it('1,200 files shared with workers find what one thread finds, comments and config included', async () => {
    const files: Record<string, string> = { '.jobsrc.yaml': 'wording:\n  allow: [rockstar]\n' };
    for (let i = 0; i < 1200; i++)
      files[`a${String(i).padStart(4, '0')}.yaml`] = (i % 2 ? CODED_EN : CODED_DE)
        .replace('reference: W-1', `reference: W-${i}`)
        .replace('title: Salesman', i % 3 ? 'title: Salesman' : 'title: Salesman # jobs-ignore wording/gendered-title');
    const dir = folder(files);
    const run = async (workers: string) => {
      const r = await jobs(['validate', '--wording', '--json', '.'], { cwd: dir, env: env({ JOBS_WORKERS: workers }), timeoutMs: 60_000 });
      return JSON.parse(r.stdout).warnings.map(
        (w: { file: string; line: number; column: number; rule: string }) => `${w.file}:${w.line}:${w.column} ${w.rule}`,
      );
    };
    const one = await run('0');
    expect(one.length).toBeGreaterThan(4000);
    expect(one.some((w: string) => w.endsWith('wording/condescending'))).toBe(false);
    expect(await run('2')).toEqual(one);
  }, 90_000);
});

describe('validate: wording findings in every output format', () => {
  it('JSON, GitHub, SARIF and Code Quality carry them with their rule id and place', async () => {
    const dir = folder({ 'a.yaml': CODED_EN });
    const json = JSON.parse((await jobs(['validate', '--wording', '--json', 'a.yaml'], { cwd: dir, env: env() })).stdout);
    expect(json.warnings[0]).toMatchObject({ file: 'a.yaml', line: 2, column: 8, rule: 'wording/gendered-title', message: 'wording/gendered-title' });
    const gh = (await jobs(['validate', '--wording', '--output', 'github', 'a.yaml'], { cwd: dir, env: env() })).stdout;
    expect(gh).toMatch(/::warning file=a\.yaml,line=2,(?:endLine=2,)?col=8[^:]*::/);
    const sarif = JSON.parse((await jobs(['validate', '--wording', '--output', 'sarif', 'a.yaml'], { cwd: dir, env: env() })).stdout);
    const rules = sarif.runs[0].tool.driver.rules.map((x: { id: string }) => x.id);
    expect(rules).toContain('wording/masculine-coded');
    expect(sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'wording/years-of-young-tech')).toMatchObject({ level: 'warning' });
    const cq = JSON.parse((await jobs(['validate', '--wording', '--output', 'codequality', 'a.yaml'], { cwd: dir, env: env() })).stdout);
    expect(cq.find((x: { check_name: string }) => x.check_name === 'jobs/wording/age-coded')).toMatchObject({
      location: { path: 'a.yaml', lines: { begin: 8 } },
    });
  });
});

// Without --wording: a rule that made the title law is checked whether or not the word lists are.
describe('validate: a neutral title where the law asks (Austria, GlBG § 9(1))', () => {
  const at = (title: string) => advert(`title: ${title}\norganization_name: ACME\ncompany_description: Roboter.\njob_description: Du planst Dienste.\n`, 'AT');
  const ruleEnv = () => env({ JOBS_TEST_RULES: 'neutral-title' });

  it('"Softwareentwickler" is a rules finding at the title citing § 9 GlBG; exit 3', async () => {
    const r = await jobs(['validate', 'a.yaml'], { cwd: folder({ 'a.yaml': at('Softwareentwickler') }), env: ruleEnv() });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('a.yaml:2:8: title: is in Austria, where AT/neutral-title asks for');
    expect(r.stdout).toContain('Gleichbehandlungsgesetz § 9 Abs. 1');
  });

  it.each(['Softwareentwickler:in', 'Softwareentwickler (m/w/d)'])('"%s" passes', async (title) => {
    const r = await jobs(['validate', 'a.yaml'], { cwd: folder({ 'a.yaml': at(title) }), env: ruleEnv() });
    expect(r.code).toBe(0);
  });
});
