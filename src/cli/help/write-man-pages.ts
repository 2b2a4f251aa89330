/**
 * Build step (scripts/build.mjs bundles and runs this): writes the man pages of the CLI as it is
 * built, named as `jobs` (the name `man` is asked for), into the folder given.
 */
import { join } from 'node:path';
import { buildProgram } from '../program.js';
import { VERSION } from '../../core/version.js';
import { manPages } from './man.js';
import { ensureFolder } from '../../core/storage/open.js';
import { replaceFile } from '../../core/storage/replace.js';

export function writeManPages(dir: string): string[] {
  const sink = { write: () => true, isTTY: false };
  const program = buildProgram(
    { io: { stdin: (async function* () {})(), stdout: sink, stderr: sink }, name: 'jobs', env: {}, cwd: process.cwd(), handleSignals: false },
    { exitCode: 0, signal: new AbortController().signal },
  );
  ensureFolder(dir);
  const pages = manPages(program, VERSION);
  for (const [file, text] of pages) replaceFile(join(dir, file), text, { durable: false, mode: 0o644 });
  return [...pages.keys()];
}
