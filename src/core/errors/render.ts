/**
 * One renderer for every error tree, local or from the service: a human sentence for each known
 * identifier with the raw identifier beside it, unknown identifiers and malformed messages shown as
 * they came (sanitized: they may come from the service), `base` shown as the whole advert's.
 */
import { describeMessage } from './messages.js';
import { flattenTree, type ErrorEntry, type ErrorTree } from './tree.js';
import { sanitize } from '../util/sanitize.js';

export interface DescribedEntry {
  /** Dotted path, or '' for the whole advert. */
  path: string;
  /** The identifier as written (sanitized). */
  raw: string;
  /** A human sentence when the identifier is known; otherwise the raw text. */
  text: string;
  known: boolean;
}

export const WHOLE_ADVERT = '(advert)';

/** `describe` defaults to the catalogue; validation's findings pass the local rules' (validation/local-rules.ts). */
export function describeEntry(entry: ErrorEntry, describe: (message: string) => string | undefined = describeMessage): DescribedEntry {
  const raw = sanitize(entry.message);
  const human = describe(entry.message);
  return { path: entry.path.map((p) => sanitize(p)).join('.'), raw, text: human ?? raw, known: human !== undefined };
}

/** `location.state: is missing (required) [missing]`, one line per message. */
export function formatEntry(d: DescribedEntry): string {
  const subject = d.path || WHOLE_ADVERT;
  return d.known ? `${subject}: ${d.text} [${d.raw}]` : `${subject}: ${d.raw}`;
}

export function renderTreeLines(tree: ErrorTree): string[] {
  return flattenTree(tree).map((e) => formatEntry(describeEntry(e)));
}

/** The tree as nested, indented lines, following the request's nesting. */
export function renderTreeNested(tree: ErrorTree, indent = ''): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(tree)) {
    const name = key === 'base' ? WHOLE_ADVERT : sanitize(key);
    if (Array.isArray(value)) {
      for (const message of value) {
        const d = describeEntry({ path: [], message: String(message) });
        lines.push(`${indent}${name}: ${d.known ? `${d.text} [${d.raw}]` : d.raw}`);
      }
    } else {
      lines.push(`${indent}${name}:`);
      for (const line of renderTreeNested(value, `${indent}  `)) lines.push(line);
    }
  }
  return lines;
}
