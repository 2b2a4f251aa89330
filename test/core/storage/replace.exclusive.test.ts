/**
 * replaceFile's `exclusive` (what convert writes with, without --force): the whole file, synced,
 * under a name that nothing holds; EEXIST when anything does (a file, a link, a folder), whose
 * content is left as it was, and no temp file is left behind.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replaceFile } from '../../../src/core/storage/replace.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'jobs-exclusive-'));
  dirs.push(d);
  return d;
}

describe('replaceFile with exclusive', () => {
  it('writes a new file with the mode asked for', () => {
    const dir = folder();
    replaceFile(join(dir, 'a.md'), 'text\n', { durable: true, syncFolder: false, mode: 0o644, exclusive: true });
    expect(readFileSync(join(dir, 'a.md'), 'utf8')).toBe('text\n');
    expect(readdirSync(dir)).toEqual(['a.md']);
  });

  it('refuses a name held by a file, a link (dangling too) or a folder: EEXIST, nothing changed, no temp file', () => {
    const dir = folder();
    writeFileSync(join(dir, 'file.md'), 'mine\n');
    writeFileSync(join(dir, 'target'), 'precious\n');
    symlinkSync(join(dir, 'target'), join(dir, 'link.md'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling.md'));
    mkdirSync(join(dir, 'folder.md'));
    for (const name of ['file.md', 'link.md', 'dangling.md', 'folder.md']) {
      expect(() => replaceFile(join(dir, name), 'new\n', { durable: true, exclusive: true }), name).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    }
    expect(readFileSync(join(dir, 'file.md'), 'utf8')).toBe('mine\n');
    expect(readFileSync(join(dir, 'target'), 'utf8')).toBe('precious\n');
    expect(readdirSync(dir).sort()).toEqual(['dangling.md', 'file.md', 'folder.md', 'link.md', 'target']);
  });
});
