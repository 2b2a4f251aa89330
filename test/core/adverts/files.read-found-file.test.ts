// What the walk saw as a regular file may have been swapped since for something else: it must still
// be refused, not read (and never waited on), whatever it holds.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAdvertFileSync } from '../../../src/core/adverts/files.js';
import { tempDir } from '../../support/temp-dirs.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('jobs-read-found-');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const textOf = (path: string) => {
  const read = readAdvertFileSync('advert.yaml', path);
  if (!('text' in read)) throw new Error(`not read: ${read.problem.message}`);
  return read.text;
};
const problemOf = (path: string) => {
  const read = readAdvertFileSync('advert.yaml', path);
  if ('text' in read) throw new Error(`read as text: ${JSON.stringify(read.text.slice(0, 40))}`);
  return read.problem.message;
};

describe('reading a file the walk found', () => {
  it('reads small, empty, buffer-sized and larger files whole', () => {
    const sizes = [0, 1, 4096, 256 * 1024 - 1, 256 * 1024, 256 * 1024 + 1, 700_000];
    for (const size of sizes) {
      const path = join(dir, `f${size}.yaml`);
      // Every byte's place shows: a part read twice or skipped changes the text.
      const text = Array.from({ length: size }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join('');
      writeFileSync(path, text);
      expect(textOf(path), `${size} bytes`).toBe(text);
    }
  });

  it('refuses a FIFO swapped in since the walk, empty or holding bytes, without waiting', () => {
    const path = join(dir, 'advert.yaml');
    execFileSync('mkfifo', [path]);
    expect(problemOf(path)).toBe('cannot read the file: it is a FIFO (named pipe), not a regular file');
    // Held open by another reader and writer, with bytes waiting in it: a read would return them.
    const held = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      writeSync(held, 'title: from a pipe\n');
      expect(problemOf(path)).toBe('cannot read the file: it is a FIFO (named pipe), not a regular file');
    } finally {
      closeSync(held);
    }
  });

  it('refuses a folder and a device in the file’s place', () => {
    const folder = join(dir, 'folder.yaml');
    mkdirSync(folder);
    expect(problemOf(folder)).toBe('cannot read the file: it is a folder');
    expect(problemOf('/dev/zero')).toBe('cannot read the file: it is a character device, not a regular file');
    expect(problemOf('/dev/null')).toBe('cannot read the file: it is a character device, not a regular file');
  });
});
