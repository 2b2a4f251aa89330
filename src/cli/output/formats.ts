/**
 * Findings in the machine formats: GitHub Actions workflow commands and SARIF 2.1.0 for code
 * scanning (JUnit and Code Quality have their own modules). The human and JSON shapes belong to
 * each command; these are shared.
 */
import { describeMessage, parseMessage } from '../../core/errors/messages.js';
import type { Finding } from '../../core/errors/findings.js';
import { sep } from 'node:path';
import { formatFinding, shownFile } from '../../core/errors/findings.js';
import { sanitize } from '../../core/util/sanitize.js';
import type { ReportWriter, RunReport } from './format-registry.js';
import { ruleFor } from '../../core/validation/local-rules.js';

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * A file's name for `file=`: as it is, so GitHub finds the file; a line break in it is kept for
 * escapeProperty to encode (%0A), as GitHub's workflow commands expect, where the shown name would
 * have a space. Other control characters and escape sequences are removed, as for every name shown.
 */
function annotatedFile(file: string): string {
  return file
    .split(/(\r|\n)/)
    .map((part) => (part === '\r' || part === '\n' ? part : shownFile(part)))
    .join('');
}

/** A file's name as a SARIF `artifactLocation.uri`: a relative URI reference (RFC 3986), each path segment percent-encoded. */
export function fileUri(file: string): string {
  return (
    file
      .split('\\')
      .join('/')
      .split('/')
      // RFC 3986 allows sub-delims, ':' and '@' in a segment as they are: `a,b.yaml` stays readable.
      .map((segment) => encodeURIComponent(segment).replace(/%(2[146789ABC]|3[ABD]|40)/g, (escape) => decodeURIComponent(escape)))
      .join('/')
  );
}

/** `::error file=a.yaml,line=3,col=8,title=jobs: blank::title: must not be blank [blank]` */
export function githubAnnotation(f: Finding): string {
  return githubAnnotationOn(sep, f);
}

/** githubAnnotation for a runner whose paths use `pathSep` (tests pass path.win32.sep). */
export function githubAnnotationOn(pathSep: string, f: Finding): string {
  const props = [
    // GitHub matches the path against the repository's, which uses `/`, whatever runner wrote it.
    f.file ? `file=${escapeProperty(annotatedFile(pathSep === '/' ? f.file : f.file.split(pathSep).join('/')))}` : undefined,
    f.line !== undefined ? `line=${f.line}` : undefined,
    f.column !== undefined ? `col=${f.column}` : undefined,
    `title=${escapeProperty(`jobs: ${f.rule}`)}`,
  ].filter(Boolean);
  // Newlines are kept: escapeData encodes them, as the annotation format expects.
  const text = f.kind === 'file' ? sanitize(f.text, true) : formatFinding({ ...f, file: '' });
  return `::${f.severity ?? 'error'} ${props.join(',')}::${escapeData(text)}`;
}

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: unknown[];
}

export function sarifLog(findings: readonly Finding[], version: string): SarifLog {
  const rules = [...new Set(findings.map((f) => f.rule))].sort();
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'jobs',
            version,
            rules: rules.map((id) => sarifRule(id, findings)),
          },
        },
        results: findings.map((f) => ({
          ruleId: f.rule,
          ruleIndex: rules.indexOf(f.rule),
          level: f.severity ?? 'error',
          message: { text: f.kind === 'file' ? f.text : formatFinding({ ...f, file: '' }) },
          locations: f.file
            ? [
                {
                  physicalLocation: {
                    artifactLocation: { uri: fileUri(f.file) },
                    ...(f.line !== undefined ? { region: { startLine: f.line, startColumn: f.column ?? 1 } } : {}),
                  },
                },
              ]
            : [],
        })),
      },
    ],
  };
}

/**
 * A rule as SARIF describes it: a local rule from its table entry (local-rules.ts: its summary,
 * severity and help address), any other from what its findings say.
 */
function sarifRule(id: string, findings: readonly Finding[]): Record<string, unknown> {
  const example = findings.find((f) => f.rule === id)!;
  const parsed = parseMessage(example.message);
  // A rule whose findings carry their own id (a rule by place) is described by the entry that made them.
  const own = parsed && example.rule !== parsed.id ? ruleFor(parsed.id)?.finding?.(parsed.data) : undefined;
  const entry = ruleFor(id);
  const help = example.help ?? entry?.help;
  return {
    id,
    shortDescription: { text: own?.summary ?? entry?.summary ?? ruleText(id, example) },
    defaultConfiguration: { level: example.severity ?? (typeof entry?.severity === 'string' ? entry.severity : 'error') },
    ...(help === undefined ? {} : { helpUri: help }),
  };
}

function ruleText(id: string, example: Finding): string {
  const known = describeMessage(id);
  if (known) return `The value ${known}.`;
  // What a run reports of a request that did not succeed (publish, sync, events), not of a file.
  if (id === 'failed' || id === 'uncertain' || id === 'held') return `A request to the service did not succeed (${id}).`;
  const local = ruleFor(id)?.describe?.([]);
  if (local) return `The value ${local}.`;
  return example.kind === 'file' ? `The file cannot be read as adverts (${id}).` : `The service reported ${id}.`;
}

/** All the findings of a run, those of its cases first. */
export function reportFindings(report: RunReport): Finding[] {
  return [...(report.findings ?? []), ...report.cases.flatMap((c) => c.findings)];
}

export const githubWriter: ReportWriter = {
  report: (report) =>
    reportFindings(report)
      .map((f) => `${githubAnnotation(f)}\n`)
      .join(''),
  line: githubAnnotation,
  fatal: (e) => `::error title=${escapeProperty(`jobs: ${e.kind}`)}::${escapeData(sanitize([e.message, ...e.details].join('\n'), true))}\n`,
};

export const sarifWriter: ReportWriter = {
  report: (report) => `${JSON.stringify(sarifLog(reportFindings(report), report.version))}\n`,
  // A run that could not start has no results: SARIF says so in the invocation's notifications.
  fatal: (e) => {
    const log = sarifLog([], e.version);
    (log.runs[0] as Record<string, unknown>).invocations = [
      {
        executionSuccessful: false,
        exitCode: e.exitCode,
        toolExecutionNotifications: [{ level: 'error', descriptor: { id: e.kind }, message: { text: [e.message, ...e.details].join('\n') } }],
      },
    ];
    return `${JSON.stringify(log)}\n`;
  },
};
