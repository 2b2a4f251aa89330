/**
 * A finding is one located error: a message from an error tree (local or the service's) or a file
 * that could not be read, with `file:line:column`. Every output format is built from findings.
 * Findings of an error tree, with the local rules' advice, are made in validation/tree-findings.ts.
 */
import type { LoadProblem } from '../adverts/types.js';
import { WHOLE_ADVERT } from './render.js';
import { sanitize } from '../util/sanitize.js';

export interface Finding {
  /** field: a message about a parameter (or the whole advert); file: a file that could not be read. */
  kind: 'field' | 'file';
  file: string;
  line?: number;
  column?: number;
  /** Dotted parameter path; '' for the whole advert or file. */
  path: string;
  /** The identifier as written (`too_long:80`), or the problem's code for unreadable files. */
  message: string;
  /** Human text. */
  text: string;
  /** Rule id: the identifier without data (`too_long`), or the problem's code. */
  rule: string;
  reference?: string;
  /** The source lines at the mistake, with a caret under it (YAML syntax errors): shown under the message on a terminal. */
  context?: string[];
  /** A warning makes nothing invalid (a closing date that has passed); absent: an error. */
  severity?: 'warning';
  /** An address that explains the rule (a rule by place: its source, the statute itself). */
  help?: string;
}

export function findingFromProblem(problem: LoadProblem): Finding {
  return {
    kind: 'file',
    file: problem.file,
    ...(problem.position ? { line: problem.position.line, column: problem.position.column } : {}),
    path: '',
    message: problem.code,
    text: problem.message,
    rule: problem.code,
    ...(problem.context ? { context: problem.context } : {}),
  };
}

/**
 * A file's name as shown on a terminal: names are external text (an escape sequence or a newline
 * in a file name must not retitle the window or fake a line), so every shown path passes here.
 */
export function shownFile(file: string): string {
  return sanitize(file);
}

export function location(f: Pick<Finding, 'file' | 'line' | 'column'>): string {
  if (!f.file) return '';
  return f.line === undefined ? shownFile(f.file) : `${shownFile(f.file)}:${f.line}:${f.column ?? 1}`;
}

/** `file:3:8: title: must not be blank [blank]` */
export function formatFinding(f: Finding): string {
  const where = location(f);
  // A file problem's text may name files too (a symlink's target, the file that holds a duplicate).
  const body = f.kind === 'file' ? sanitize(f.text) : `${f.path || WHOLE_ADVERT}: ${f.text === f.message ? f.text : `${f.text} [${f.message}]`}`;
  return where ? `${where}: ${body}` : body;
}

/** Findings in reading order: by file, then line, then column. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => (a.file === b.file ? (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) : a.file < b.file ? -1 : 1));
}
