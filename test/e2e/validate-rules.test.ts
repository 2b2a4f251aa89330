/**
 * `validate` checks the rules by place through the built binary, with the fixture data
 * (JOBS_TEST_RULES=places: Colorado, New York City, Ontario, Austria): the finding at the advert's
 * line, naming the place, the rule and what to add, in every output format with the rule's id; a
 * config that lowers a rule, said once; an override naming no rule; worker threads alike (and with the
 * built-in data, which the settings a worker gets do not carry).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const advert = (reference: string, where: string, salary: string, extra = '') =>
  `reference: ${reference}\ntitle: Engineer\norganization_name: ACME\ncompany_description: Robots.\njob_description: Build robots.\ncontract_id: 1\nsalary_id: 2\nsalary_text: ${salary}\nindustry_id: 3\ndepartment_id: 4\nseniority: 0\neducation: 0\n${where}recruiter:\n  email: hr@acme.example\n${extra}`;

// Denver and Austin, no range: Colorado asks for one (and benefits and the deadline, said here); Texas has no rule.
const DENVER_AUSTIN = advert(
  'ENG-1',
  'locations:\n  - country: US\n    state: TX\n    city: Austin\n  - country: US\n    state: CO\n    city: Denver\n',
  'Competitive',
  'jobs:\n  closes: 2026-12-31\n  disclosures:\n    benefits: Health and dental insurance.\n    deadline: true\n',
);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-rules-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const env = (extra: Record<string, string> = {}) => {
  const e = isolatedEnv({ JOBS_TEST_RULES: 'places', JOBS_TODAY: '2026-11-27', ...extra });
  dirs.push(e.HOME!);
  return e;
};

describe('validate with rules by place', () => {
  const dir = folder({ 'eng.yaml': DENVER_AUSTIN });

  it('Denver and Austin without a range: one finding, for Denver, at its list item (exit 3), on one thread and on worker threads', async () => {
    // 1,000 files or more are shared with worker threads (run-files.ts): they get the rules whole.
    const many = folder({ 'eng.yaml': DENVER_AUSTIN });
    for (let i = 0; i < 1000; i++) writeFileSync(join(many, `ad-${i}.yaml`), advert(`AD-${i}`, 'location:\n  country: NO\n  city: Oslo\n', '650 000 NOK'));
    for (const workers of ['0', '2']) {
      const r = await jobs(['validate', '.', '--verbose'], { cwd: many, env: env({ JOBS_WORKERS: workers }), timeoutMs: 60_000 });
      if (workers === '2') expect(r.stderr).toContain('checking on this thread and 2 worker threads');
      expect(r.code).toBe(3);
      expect(r.stdout.trimEnd().split('\n')).toEqual([
        expect.stringMatching(
          /^✖ eng\.yaml:17:5: locations\[1\]: is in Colorado, where US-CO\/pay-range asks for: .*salary_text cannot be read as a pay \(it names no amount\): .*source: C\.R\.S\. § 8-5-201, https:\/\/leg\.colorado\.gov\/\S+ \[place_rule:US_CO_pay_range:pay_unread\]$/,
        ),
      ]);
    }
  });

  it("the tool's own rules (not in the settings a worker gets: each thread parses them) find the same on worker threads as on one", async () => {
    const many = folder({});
    const denver = 'location:\n  country: US\n  state: CO\n  city: Denver\n';
    // One advert in 50 in Colorado: every thread's batches hold some.
    for (let i = 0; i < 1000; i++)
      writeFileSync(join(many, `ad-${i}.yaml`), advert(`AD-${i}`, i % 50 === 0 ? denver : 'location:\n  country: NO\n  city: Oslo\n', '650 000 NOK'));
    const run = (workers: string) => {
      const e = isolatedEnv({ JOBS_TODAY: '2026-11-27', JOBS_WORKERS: workers });
      dirs.push(e.HOME!);
      return jobs(['validate', '.', '--json', '--verbose'], { cwd: many, env: e, timeoutMs: 60_000 });
    };
    const one = await run('0');
    const shared = await run('2');
    expect(shared.stderr).toContain('checking on this thread and 2 worker threads');
    const findings = (r: typeof one): { file: string; rule: string }[] => (JSON.parse(r.stdout) as { findings: { file: string; rule: string }[] }).findings;
    expect([one.code, shared.code]).toEqual([3, 3]);
    expect(
      new Set(
        findings(shared)
          .filter((f) => f.rule === 'US-CO/pay-range')
          .map((f) => f.file),
      ).size,
    ).toBe(20);
    expect(findings(shared)).toEqual(findings(one));
  });

  it('is not in force before its first day', async () => {
    const r = await jobs(['validate', '.'], { cwd: dir, env: env({ JOBS_TODAY: '2020-12-31' }) });
    expect([r.code, r.stdout]).toEqual([0, '']);
  });

  it('every output format carries the rule id; SARIF gives the source as its help address', async () => {
    const run = async (...args: string[]) => (await jobs(['validate', ...args, '.'], { cwd: dir, env: env() })).stdout;
    const json = JSON.parse(await run('--json'));
    expect(json.findings).toMatchObject([
      { rule: 'US-CO/pay-range', line: 17, path: 'locations[1]', help: expect.stringMatching(/^https:\/\/leg\.colorado\.gov\//) },
    ]);
    expect(await run('-o', 'github')).toMatch(/^::error file=eng\.yaml,line=17,col=5,title=jobs%3A US-CO\/pay-range::locations\[1\]: is in Colorado/);
    const sarif = JSON.parse(await run('-o', 'sarif'));
    expect(sarif.runs[0].tool.driver.rules).toEqual([
      {
        id: 'US-CO/pay-range',
        shortDescription: { text: 'Colorado: Pay range, a general description of benefits, and the application deadline in every posting (C.R.S. § 8-5-201).' },
        defaultConfiguration: { level: 'error' },
        helpUri: expect.stringMatching(/^https:\/\/leg\.colorado\.gov\//),
      },
    ]);
    expect(sarif.runs[0].results).toMatchObject([{ ruleId: 'US-CO/pay-range', level: 'error' }]);
    expect(await run('-o', 'junit')).toContain('<failure type="US-CO/pay-range" message="eng.yaml:17:5: locations[1]: is in Colorado');
    expect(JSON.parse(await run('-o', 'codequality'))).toMatchObject([
      { check_name: 'jobs/US-CO/pay-range', severity: 'major', location: { path: 'eng.yaml', lines: { begin: 17 } } },
    ]);
  });

  it('a config that lowers the rule to a warning: exit 0, the finding as a warning, and the lowering said once', async () => {
    const lowered = folder({
      'eng.yaml': DENVER_AUSTIN,
      'b.yaml': DENVER_AUSTIN.replace('ENG-1', 'ENG-2'),
      '.jobsrc.yaml': 'rules:\n  US-CO/pay-range: warning\n',
    });
    const r = await jobs(['validate', '.'], { cwd: lowered, env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^⚠ b\.yaml:17:5: locations\[1\]: is in Colorado/);
    expect(r.stderr.match(/note: the config lowers a rule by place: US-CO\/pay-range: warning \(\.jobsrc\.yaml\); see docs\/rules\.md/g)).toHaveLength(1);
    const off = folder({ 'eng.yaml': DENVER_AUSTIN, '.jobsrc.yaml': 'rules:\n  US-CO/pay-range: off\n' });
    const o = await jobs(['validate', '.'], { cwd: off, env: env() });
    expect([o.code, o.stdout]).toEqual([0, '']);
    expect(o.stderr).toContain('note: the config lowers a rule by place: US-CO/pay-range: off (.jobsrc.yaml)');
  });

  it('an override naming no rule is a config error at its line (exit 2)', async () => {
    const bad = folder({ 'eng.yaml': DENVER_AUSTIN, '.jobsrc.yaml': 'concurrency: 2\nrules:\n  US-CO/pay-rnage: warning\n' });
    const r = await jobs(['validate', '.'], { cwd: bad, env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.jobsrc.yaml:3:3: rules.US-CO/pay-rnage: no rule has this id; did you mean US-CO/pay-range?');
  });

  it('the employer size declared in the config decides whether a rule covers it', async () => {
    const nyc = advert('NYC-1', 'location:\n  country: US\n  state: NY\n  city: Manhattan\n', 'from $90,000');
    const unknown = await jobs(['validate', '.'], { cwd: folder({ 'nyc.yaml': nyc }), env: env() });
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toContain('it covers employers with 4 or more employees; declare yours with employer.employees in the config');
    const small = await jobs(['validate', '.'], { cwd: folder({ 'nyc.yaml': nyc, '.jobsrc.yaml': 'employer:\n  employees: 3\n' }), env: env() });
    expect([small.code, small.stdout]).toEqual([0, '']);
  });

  it('publish refuses an advert that breaks a rule in force before sending anything (exit 3)', async () => {
    const r = await jobs(['publish', '.'], { cwd: dir, env: env({ JOBS_BASE_URL: 'http://127.0.0.1:9', JOBS_TOKEN: 'tok_unused' }) });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('eng.yaml:17:5: locations[1]: is in Colorado');
    expect(r.stderr).toContain('nothing was sent');
  });

  it('publish --dry-run shows the disclosures the tool adds to the job description', async () => {
    const ok = folder({ 'eng.yaml': DENVER_AUSTIN.replace('Competitive', '"$120,000 - $150,000 a year"') });
    const r = await jobs(['publish', '--dry-run', '--json', '.'], { cwd: ok, env: env() });
    expect(r.code).toBe(0);
    const bodies = JSON.parse(r.stdout).requests.map((q: { body: { job_description: string } }) => q.body.job_description);
    expect(bodies).toEqual([
      'Build robots.\n\nHealth and dental insurance.\n\nApplications close on 2026-12-31.',
      'Build robots.\n\nHealth and dental insurance.\n\nApplications close on 2026-12-31.',
    ]);
  });
});
