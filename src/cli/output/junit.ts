/**
 * JUnit XML test reports (read by GitLab, Jenkins, Azure Pipelines, CircleCI): a testsuite per
 * file, a testcase per advert or event, a failure per finding. Only the elements and attributes of
 * the published JUnit schemas (Jenkins' junit-4.xsd, xunit's junit-10.xsd) allow are used, so that strict readers
 * take it: the finding's file:line:col is in its message, as testcase has no place for it.
 */
import { formatFinding, type Finding } from '../../core/errors/findings.js';
import { sanitize } from '../../core/util/sanitize.js';
import type { FatalError, ReportCase, ReportWriter, RunReport } from './format-registry.js';

// Characters XML 1.0 cannot hold at all, once sanitize has removed the controls.
const NOT_XML = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xml(text: string): string {
  return sanitize(text, true)
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;');
}

const attrs = (pairs: Record<string, string | number | undefined>) =>
  Object.entries(pairs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xml(String(v))}"`)
    .join('');

function failure(f: Finding): string {
  const text = formatFinding(f);
  return `      <failure${attrs({ type: f.rule, message: text })}>${xml(text).replace(/&#10;/g, '\n')}</failure>\n`;
}

function testcase(c: ReportCase, suite: string): string {
  const where = c.line === undefined ? '' : ` (line ${c.line})`;
  // The reason as text, not a message attribute: Jenkins' junit-4.xsd gives skipped no attributes.
  const body = c.skipped !== undefined ? `      <skipped>${xml(c.skipped)}</skipped>\n` : c.findings.map(failure).join('');
  const open = `    <testcase${attrs({ name: `${c.name}${where}`, classname: suite })}`;
  return body ? `${open}>\n${body}    </testcase>\n` : `${open}/>\n`;
}

interface Suite {
  name: string;
  cases: ReportCase[];
}

function suites(report: RunReport): Suite[] {
  const byFile = new Map<string, Suite>();
  const suiteOf = (file: string) => {
    const name = file || report.command;
    let s = byFile.get(name);
    if (!s) byFile.set(name, (s = { name, cases: [] }));
    return s;
  };
  // A file that could not be read is one case of its own, failed by its findings.
  const loose = new Map<string, Finding[]>();
  for (const f of report.findings ?? []) loose.set(f.file, [...(loose.get(f.file) ?? []), f]);
  for (const [file, findings] of loose) suiteOf(file).cases.push({ file, name: file ? `${file} (file)` : report.command, findings });
  for (const c of report.cases) suiteOf(c.file).cases.push(c);
  return [...byFile.values()];
}

function document(name: string, body: Suite[], errors: Map<Suite, number> = new Map()): string {
  const count = (s: Suite) => ({
    tests: s.cases.length,
    failures: s.cases.filter((c) => c.findings.length > 0).length,
    skipped: s.cases.filter((c) => c.skipped !== undefined).length,
  });
  const totals = body
    .map(count)
    .reduce((a, b) => ({ tests: a.tests + b.tests, failures: a.failures + b.failures, skipped: a.skipped + b.skipped }), { tests: 0, failures: 0, skipped: 0 });
  const allErrors = [...errors.values()].reduce((a, b) => a + b, 0);
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name, tests: totals.tests, failures: totals.failures, errors: allErrors })}>\n`;
  for (const s of body) {
    const n = count(s);
    out += `  <testsuite${attrs({ name: s.name, tests: n.tests, failures: n.failures, errors: errors.get(s) ?? 0, skipped: n.skipped })}>\n`;
    out += s.cases.map((c) => testcase(c, s.name)).join('');
    out += '  </testsuite>\n';
  }
  return `${out}</testsuites>\n`;
}

export const junitWriter: ReportWriter = {
  report: (report) => document(report.command, suites(report)),
  // A run that could not start: one testcase in error, so the CI shows why.
  fatal: (e: FatalError) => {
    const text = [e.message, ...e.details].join('\n');
    return (
      `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name: e.command, tests: 1, failures: 0, errors: 1 })}>\n` +
      `  <testsuite${attrs({ name: e.command, tests: 1, failures: 0, errors: 1, skipped: 0 })}>\n` +
      `    <testcase${attrs({ name: e.command, classname: e.command })}>\n` +
      `      <error${attrs({ type: e.kind, message: e.message })}>${xml(text).replace(/&#10;/g, '\n')}</error>\n` +
      '    </testcase>\n  </testsuite>\n</testsuites>\n'
    );
  },
};
