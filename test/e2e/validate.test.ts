import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';
import { advertYaml } from '../commands/harness.js';
import { tempDir } from '../support/temp-dirs.js';

const VALID = advertYaml('E2E-1');

function folder(files: Record<string, string>): string {
  const dir = tempDir('jobs-adverts-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('jobs validate (built binary)', () => {
  it('accepts the examples and exits 0', async () => {
    const r = await jobs(['validate', 'examples/adverts/']);
    expect(r.stderr).toBe('✔ 3 adverts in 2 files: all valid\n');
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
  });

  it('reports every error of every file with file:line:column and exits 3', async () => {
    const dir = folder({
      'a.yaml': VALID.replace('title: Engineer', 'titel: Engineer'),
      'sub/b.yml': VALID.replace('E2E-1', 'E2E-2').replace('country: NO', 'country: US'),
      // JSON is read as YAML: a number in a text field is kept as its text, like an unquoted YAML value.
      'c.json': '{"reference": "E2E-3",\n "title": 5}',
      'notes.txt': 'ignored',
    });
    const r = await jobs(['validate', dir], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout.split('\n')).toEqual([
      '✖ a.yaml:1:1: title: is missing (required) [missing]',
      '✖ a.yaml:2:8: titel: is not a known field; did you mean title? [unknown_field:title]',
      '✖ c.json:1:1: organization_name: is missing (required) [missing]',
      ...Array(11).fill(expect.stringMatching(/^✖ c\.json:1:1: .*\[missing\]$/)),
      '✖ sub/b.yml:14:3: location.state: is missing: it is required because location.country is US (also for CA, MX) [missing]',
      '',
    ]);
    expect(r.stderr).toBe('✖ 15 errors: 3 adverts in 3 files checked, 3 invalid\n');
  });

  it('says what to write instead, keeping file:line:column and the identifier', async () => {
    const dir = folder({
      'a.yaml': VALID.replace('country: NO', 'country: USA\n  state: TX').replace('seniority: 0', 'seniority: 0\nstart_date: 2027-02-30'),
      'b.yaml': VALID.replace('E2E-1', 'E2E-2').replace('  city: Oslo', '    city: Oslo'),
    });
    const r = await jobs(['validate', '.'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout.split('\n')).toEqual([
      '✖ a.yaml:12:13: start_date: 2027-02-30 is not a day: February 2027 has 28 days; write the date as YYYY-MM-DD, e.g. 2027-01-15 [invalid]',
      '✖ a.yaml:15:12: location.country: USA is not an ISO 3166-1 alpha-2 country code: write US (United States of America) [inclusion]',
      '✖ b.yaml:15:5: `city` is indented more than `country` above it (4 spaces, not 2), so YAML reads it as part of the value of `country`; line it up with `country`',
      '',
    ]);
    expect(r.stderr).toBe('✖ 3 errors: 1 advert in 2 files checked, 1 invalid, 1 file with YAML errors\n');
  });

  it('loads the country list only when a country needs a suggestion', async () => {
    // A preload that says on exit whether i18n-iso-countries was ever required.
    const dir = folder({
      'probe.cjs':
        "process.on('exit', () => process.stderr.write(`countries loaded: ${Object.keys(require.cache).some((f) => f.includes('i18n-iso-countries'))}\\n`));\n",
      'ok/a.yaml': VALID,
      'bad/a.yaml': VALID.replace('country: NO', 'country: Norway'),
    });
    const env = isolatedEnv({ NODE_OPTIONS: `--require ${join(dir, 'probe.cjs')}` });
    const ok = await jobs(['validate', 'ok'], { cwd: dir, env });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toContain('countries loaded: false');
    const bad = await jobs(['validate', 'bad'], { cwd: dir, env });
    expect(bad.stdout).toContain('write NO (Norway) [inclusion]');
    expect(bad.stderr).toContain('countries loaded: true');
  });

  it('reads stdin with -', async () => {
    const r = await jobs(['validate', '-'], { input: VALID });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('✔ 1 advert in 1 file: all valid\n');
  });

  it('reports YAML syntax errors, duplicate references and empty files without a stack trace', async () => {
    const dir = folder({ 'a.yaml': VALID, 'b.yaml': VALID, 'broken.yaml': 'title: [oops\n', 'empty.yaml': '' });
    const r = await jobs(['validate', '.'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('✖ b.yaml:1:12: reference "E2E-1" is already used by a.yaml:1:12; each advert needs its own');
    expect(r.stdout).toMatch(/✖ broken\.yaml:\d+:\d+: /);
    expect(r.stdout).toContain('✖ empty.yaml:1:1: the file holds no advert (it is empty or only comments)');
    expect(r.stderr + r.stdout).not.toMatch(/\n\s+at /);
  });

  it('gives JSON, GitHub and SARIF output', async () => {
    const dir = folder({ 'a.yaml': VALID.replace('seniority: 0', 'seniority: -2') });
    const json = await jobs(['validate', 'a.yaml', '--json'], { cwd: dir });
    expect(json.code).toBe(3);
    const doc = JSON.parse(json.stdout);
    expect(doc.valid).toBe(false);
    expect(doc.summary).toEqual({ files: 1, adverts: 1, valid: 0, invalid: 1, problems: 0, errors: 1, warnings: 0 });
    expect(doc.adverts).toEqual([{ file: 'a.yaml', document: 0, line: 1, reference: 'E2E-1', valid: false, errors: { seniority: ['less_than:0'] } }]);
    expect(doc.findings[0]).toMatchObject({ file: 'a.yaml', line: 11, column: 12, path: 'seniority', message: 'less_than:0', text: 'must be at least 0' });

    const gh = await jobs(['validate', 'a.yaml', '--output', 'github'], { cwd: dir });
    expect(gh.stdout).toBe('::error file=a.yaml,line=11,col=12,title=jobs%3A less_than::seniority: must be at least 0 [less_than:0]\n');

    const sarif = await jobs(['--output=sarif', 'validate', 'a.yaml'], { cwd: dir });
    const log = JSON.parse(sarif.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0].results[0].locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'a.yaml' }, region: { startLine: 11, startColumn: 12 } });
  });

  it('checks partial update files with --update', async () => {
    const dir = folder({ 'patch.yaml': 'recruiter:\n  phone: "+47 22 00 00 00"\n', 'bad.yaml': 'seniority: lots\n' });
    expect((await jobs(['validate', '--update', 'patch.yaml'], { cwd: dir })).code).toBe(0);
    const bad = await jobs(['validate', '--update', 'bad.yaml'], { cwd: dir });
    expect(bad.code).toBe(3);
    expect(bad.stdout).toBe(
      '✖ bad.yaml:1:12: seniority: lots is not a number: seniority is a number of years (the minimum experience); write a whole number, e.g. 3 [not_a_number]\n',
    );
  });

  it('exits 2 on a missing path or an unknown flag, with a hint', async () => {
    const missing = await jobs(['validate', 'nope/']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('jobs-cli: nope/: no such file or folder\n'); // node bin/jobs.js calls itself jobs-cli
    const flag = await jobs(['validate', '--updat', 'examples/']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--updat'");
    expect(flag.stderr).toContain('--update');
    const command = await jobs(['valdate', 'x']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('(Did you mean validate?)');
  });
});
