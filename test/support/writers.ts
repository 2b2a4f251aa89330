/**
 * Where src/ writes files: every call of a file-writing function of node:fs (writeFile, appendFile,
 * createWriteStream, rename, unlink, rm, mkdir, copyFile, truncate, link, chmod, writeSync, ...)
 * and every open with write flags ('w', 'a', 'r+', O_WRONLY, O_RDWR, O_CREAT, O_APPEND), outside
 * the storage layer (src/core/storage). Comments are left out; strings are not parsed, so a
 * message that reads like a call would be named (none does).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const WRITERS = [
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'rename',
  'renameSync',
  'unlink',
  'unlinkSync',
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'mkdir',
  'mkdirSync',
  'mkdtemp',
  'mkdtempSync',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
  'truncate',
  'truncateSync',
  'ftruncate',
  'ftruncateSync',
  'link',
  'linkSync',
  'symlink',
  'symlinkSync',
  'chmod',
  'chmodSync',
  'fchmod',
  'fchmodSync',
  'chown',
  'chownSync',
  'utimes',
  'utimesSync',
  'writeSync',
  'writev',
  'writevSync',
];
const CALL = new RegExp(`(?<![\\w$])(${WRITERS.join('|')})\\s*\\(`, 'g');
// An open whose flags write: a flags string other than 'r' (and 'rs'), or write/create/append constants.
const WRITE_OPEN = /(?<![\w$])(open|openSync)\s*\(([^()]|\([^()]*\))*?(['"`](?:[aw]x?\+?|r\+|rs\+)['"`]|O_WRONLY|O_RDWR|O_CREAT|O_APPEND|O_TRUNC)/g;

export interface FileWrite {
  /** The file, relative to src/. */
  file: string;
  line: number;
  /** The function called (`renameSync`), or `open(..., 'a')`. */
  what: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Comments blanked out (line numbers kept); strings and code as they are. */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/[^\n]*/g, (m, before: string) => before + ' '.repeat(m.length - before.length));
}

/** Every file write in `srcFolder` outside core/storage. */
export function fileWritesOutsideStorage(srcFolder: string): FileWrite[] {
  const src = resolve(srcFolder);
  const storage = join(src, 'core', 'storage') + sep;
  const found: FileWrite[] = [];
  for (const path of sourceFiles(src)) {
    if (path.startsWith(storage)) continue;
    const file = relative(src, path);
    const text = withoutComments(readFileSync(path, 'utf8'));
    const lineOf = (index: number) => text.slice(0, index).split('\n').length;
    for (const m of text.matchAll(CALL)) found.push({ file, line: lineOf(m.index), what: m[1]! });
    for (const m of text.matchAll(WRITE_OPEN)) found.push({ file, line: lineOf(m.index), what: `${m[1]}(..., ${m[3]})` });
  }
  return found.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}
