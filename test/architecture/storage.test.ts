import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileWritesOutsideStorage } from '../support/writers.js';
import { tempDir } from '../support/temp-dirs.js';

const SRC = join(import.meta.dirname, '../../src');

/**
 * Writes outside src/core/storage that are allowed, each with its reason. Writing to stdout or
 * stderr is not a file (those are streams, not fs calls, and not matched).
 */
const ALLOWED: Record<string, string> = {
  // The journal's group commit hands its write (counted by tests, done in place for speed) to
  // AppendLog.appendWith, which calls it only on the descriptor the storage layer opened.
  'core/events/journal.ts writeSync': 'the write operation AppendLog.appendWith runs on its own descriptor',
  // stdout and stderr written before their streams are made (start-up time): descriptors 1 and 2 only.
  'cli/output/lazy-stdio.ts writeSync': "the process's stdout and stderr, file descriptors 1 and 2, as their streams would write them",
};

describe('the storage layer is the only writer of files', () => {
  it('no file in src/ outside core/storage writes, renames, removes or opens a file for writing', () => {
    const writes = fileWritesOutsideStorage(SRC).map((w) => `${w.file} ${w.what}`);
    expect(writes.filter((w) => !(w in ALLOWED))).toEqual([]);
    // Every exception is still needed: an allowance for code that is gone is removed.
    expect(Object.keys(ALLOWED).filter((a) => !writes.includes(a))).toEqual([]);
  });
});

describe('the writer check itself', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('names every kind of write outside the storage layer, and no read, comment or stream write', () => {
    dir = tempDir('jobs-writers-');
    const files: Record<string, string> = {
      'core/sync/a.ts': [
        "import { openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';",
        "const fd = openSync(path, 'a', 0o644);",
        "const rd = openSync(path, 'r');",
        'readFileSync(path);',
        "writeFileSync(path, 'x');",
        '// renameSync(a, b) in a comment',
        'process.stdout.write("x");',
        'renameSync(a, b);',
      ].join('\n'),
      'cli/b.ts': [
        "const { open, rm } = await import('node:fs/promises');",
        'const h = await open(path, constants.O_WRONLY | constants.O_CREAT);',
        'await handle.writeFile(text);',
        'await rm(path, { force: true });',
        "fs.createWriteStream('x');",
        'mkdirSync(dir, { recursive: true });',
      ].join('\n'),
      'core/storage/replace.ts': "renameSync(a, b);\nwriteFileSync(p, 'x');\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    expect(fileWritesOutsideStorage(dir).map((w) => `${w.file}:${w.line} ${w.what}`)).toEqual([
      'cli/b.ts:2 open(..., O_WRONLY)',
      'cli/b.ts:3 writeFile',
      'cli/b.ts:4 rm',
      'cli/b.ts:5 createWriteStream',
      'cli/b.ts:6 mkdirSync',
      "core/sync/a.ts:2 openSync(..., 'a')",
      'core/sync/a.ts:5 writeFileSync',
      'core/sync/a.ts:8 renameSync',
    ]);
  });
});
