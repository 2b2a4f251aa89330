/**
 * The one-way rule between the two layers of src/: the core (src/core) knows no terminal; the CLI
 * (src/cli) is built on it. Reads every core file's imports (static, dynamic, type-only,
 * re-exports, require) and says which ones leave the core or reach for a terminal package, and
 * which files write to the process's terminal streams or end the process themselves.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Packages that draw on or read from a terminal: the CLI's business. */
export const TERMINAL_PACKAGES = ['commander', 'chalk', 'ora'];

const SPECIFIER = /\b(?:from|import|require)\s*\(?\s*(['"])([^'"\n]+)\1/g;
// Writing to the terminal or ending the process is the CLI's (reading `-` from stdin is input, like a file).
const TERMINAL_STREAMS = /\bprocess\.(stdout|stderr|exit)\b/g;

export interface Violation {
  /** The core file, relative to src/. */
  file: string;
  /** The import specifier, or the process member used. */
  what: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every way a file under `src/core` leaves the core. `src` is the folder that holds core/ and cli/. */
export function coreViolations(srcFolder: string): Violation[] {
  const src = resolve(srcFolder);
  const core = join(src, 'core');
  const violations: Violation[] = [];
  for (const path of sourceFiles(core)) {
    const file = relative(src, path);
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(SPECIFIER)) {
      const spec = match[2]!;
      if (spec.startsWith('.')) {
        // Into src/ but outside the core is the CLI; files outside src/ (schemas/) are data.
        const target = `${resolve(dirname(path), spec)}${sep}`;
        if (target.startsWith(`${src}${sep}`) && !target.startsWith(`${core}${sep}`)) violations.push({ file, what: spec });
      } else {
        const name = spec.replace(/^node:/, '').split('/')[0] ?? '';
        if (TERMINAL_PACKAGES.includes(name) || name === 'readline' || name === 'tty') violations.push({ file, what: spec });
      }
    }
    for (const [member] of text.matchAll(TERMINAL_STREAMS)) violations.push({ file, what: member });
  }
  return violations;
}

export interface OrderViolation {
  /** The importing core file, relative to src/core. */
  file: string;
  /** The imported core file, relative to src/core. */
  imports: string;
}

// `import type` / `export type` carry no code and set no load order: types are the shared vocabulary.
const TYPE_ONLY = /^\s*(?:import|export)\s+type\b/;
const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/.*$/gm;

/**
 * Imports between the core's folders that run against `order` (lowest first): a file may import
 * its own folder and the folders before it. Files directly in core/ count as the folder '.'.
 * A folder missing from `order` is reported too (as importing or imported), so a new folder is placed.
 */
export function coreOrderViolations(srcFolder: string, order: readonly string[]): OrderViolation[] {
  const core = join(resolve(srcFolder), 'core');
  const folderOf = (rel: string) => (rel.includes(sep) ? rel.split(sep)[0]! : '.');
  const rank = (folder: string) => order.indexOf(folder);
  const violations: OrderViolation[] = [];
  for (const path of sourceFiles(core)) {
    const file = relative(core, path);
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(SPECIFIER)) {
      const spec = match[2]!;
      if (!spec.startsWith('.')) continue;
      const statement = text.slice(text.lastIndexOf(';', match.index) + 1, match.index).replace(COMMENTS, '');
      if (TYPE_ONLY.test(statement)) continue;
      const target = relative(core, resolve(dirname(path), spec));
      if (target.startsWith('..')) continue;
      const from = folderOf(file);
      const to = folderOf(target);
      if (from === to) continue;
      if (rank(from) < 0 || rank(to) < 0 || rank(to) > rank(from))
        violations.push({ file: file.split(sep).join('/'), imports: target.split(sep).join('/').replace(/\.js$/, '.ts') });
    }
  }
  return violations;
}
