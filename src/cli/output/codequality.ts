/**
 * GitLab Code Quality reports: a JSON array of issues (description, check_name, fingerprint,
 * severity, location.path, location.lines.begin), shown in merge requests. The fingerprint names
 * the file, the check, the advert and the field, not the line: an issue keeps its identity when
 * lines above it move, so GitLab does not report it as fixed and new again.
 */
import { createHash } from 'node:crypto';
import { formatFinding, type Finding } from '../../core/errors/findings.js';
import { sanitize } from '../../core/util/sanitize.js';
import type { FatalError, ReportWriter, RunReport } from './format-registry.js';
import { reportFindings } from './formats.js';

export type Severity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';

export interface CodeQualityIssue {
  type: 'issue';
  description: string;
  check_name: string;
  fingerprint: string;
  severity: Severity;
  location: { path: string; lines: { begin: number } };
}

const hash = (parts: readonly string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');
const posix = (file: string) => file.split('\\').join('/');

function issues(findings: readonly Finding[]): CodeQualityIssue[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const path = posix(f.file);
    const key = [path, f.rule, f.reference ?? '', f.path, f.message];
    // The same message twice on one field of one advert: numbered in reading order, still line-free.
    const base = hash(key);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return {
      type: 'issue',
      description: sanitize(formatFinding({ ...f, file: '' })),
      check_name: `jobs/${f.rule}`,
      fingerprint: n === 0 ? base : hash([...key, String(n)]),
      // A file that cannot be read stops everything in it; a field's error stops one advert.
      severity: f.severity === 'warning' ? 'minor' : f.kind === 'file' ? 'critical' : 'major',
      location: { path, lines: { begin: f.line ?? 1 } },
    };
  });
}

export const codeQualityWriter: ReportWriter = {
  report: (report: RunReport) => `${JSON.stringify(issues(reportFindings(report)), null, 2)}\n`,
  // No file to point at: the issue sits on the project's root so the merge request still shows it.
  fatal: (e: FatalError) =>
    `${JSON.stringify(
      [
        {
          type: 'issue',
          description: sanitize([e.message, ...e.details].join(' ')),
          check_name: `jobs/${e.kind}`,
          fingerprint: hash([e.command, e.kind, e.message]),
          severity: 'blocker',
          location: { path: '.', lines: { begin: 1 } },
        } satisfies CodeQualityIssue,
      ],
      null,
      2,
    )}\n`,
};
