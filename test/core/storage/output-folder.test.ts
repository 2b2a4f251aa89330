import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST, NotOwnOutputError, writeOutputFolder } from '../../../src/core/storage/output-folder.js';
import { NotOwnFileError } from '../../../src/core/storage/errors.js';
import { FORMATTER_GUARD } from '../../../src/core/storage/tool-folder.js';

let root: string;
let dir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'jobs-outfolder-'));
  dir = join(root, 'site');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const files = (names: Record<string, string>) => new Map(Object.entries(names));

describe('a folder shared with the user, written through a manifest', () => {
  it("writes the files and a manifest; the next run replaces its own files and removes those it no longer writes, never the user's", async () => {
    expect(await writeOutputFolder(dir, { files: files({ 'a.html': 'A', 'b.html': 'B' }), removeStale: true })).toEqual({
      written: ['a.html', 'b.html'],
      removed: [],
    });
    writeFileSync(join(dir, 'mine.html'), 'my own page');
    writeFileSync(join(dir, 'robots.txt'), 'User-agent: *');
    expect(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')).files).toEqual([FORMATTER_GUARD, 'a.html', 'b.html']);
    expect(await writeOutputFolder(dir, { files: files({ 'a.html': 'A2' }), removeStale: true })).toEqual({ written: ['a.html'], removed: ['b.html'] });
    expect(readdirSync(dir).sort()).toEqual([MANIFEST, FORMATTER_GUARD, 'a.html', 'mine.html', 'robots.txt']);
    expect(readFileSync(join(dir, 'a.html'), 'utf8')).toBe('A2');
    expect(readFileSync(join(dir, 'mine.html'), 'utf8')).toBe('my own page');
    expect(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')).files).toEqual([FORMATTER_GUARD, 'a.html']);
  });

  it('without removeStale (previews) an earlier file stays, and stays known', async () => {
    await writeOutputFolder(dir, { files: files({ 'a.html': 'A' }), removeStale: false });
    await writeOutputFolder(dir, { files: files({ 'b.html': 'B' }), removeStale: false });
    expect(readdirSync(dir).sort()).toEqual([MANIFEST, FORMATTER_GUARD, 'a.html', 'b.html']);
    expect(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')).files).toEqual([FORMATTER_GUARD, 'a.html', 'b.html']);
  });

  it('staleExtensions: a run removes only stale files of the kinds it writes (a site and its JSON-LD in one folder)', async () => {
    await writeOutputFolder(dir, { files: files({ 'a.html': 'A', 'index.html': 'I' }), removeStale: true, staleExtensions: ['.html'] });
    await writeOutputFolder(dir, { files: files({ 'a.jsonld': '{}', 'b.jsonld': '{}' }), removeStale: true, staleExtensions: ['.jsonld'] });
    expect(await writeOutputFolder(dir, { files: files({ 'a.jsonld': '{}' }), removeStale: true, staleExtensions: ['.jsonld'] })).toEqual({
      written: ['a.jsonld'],
      removed: ['b.jsonld'],
    });
    // The formatter's guard (tool-folder.ts) is the tool's own, listed and kept.
    expect(readdirSync(dir).sort()).toEqual([MANIFEST, FORMATTER_GUARD, 'a.html', 'a.jsonld', 'index.html']);
    expect(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')).files).toEqual([FORMATTER_GUARD, 'a.html', 'a.jsonld', 'index.html']);
  });

  it("a file of the user's with a name the tool writes: nothing is written, unless force", async () => {
    mkdirSync(dir);
    writeFileSync(join(dir, 'index.html'), 'my index');
    const run = () => writeOutputFolder(dir, { files: files({ 'a.html': 'A', 'index.html': 'I' }), removeStale: true });
    await expect(run()).rejects.toThrow(NotOwnOutputError);
    expect(readdirSync(dir)).toEqual(['index.html']);
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toBe('my index');
    await writeOutputFolder(dir, { files: files({ 'a.html': 'A', 'index.html': 'I' }), removeStale: true, force: true });
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toBe('I');
  });

  it('a planted link where a file goes is refused before anything is written, and its target is untouched', async () => {
    await writeOutputFolder(dir, { files: files({ 'a.html': 'A', 'b.html': 'B' }), removeStale: true });
    const target = join(root, 'precious.txt');
    writeFileSync(target, 'precious');
    rmSync(join(dir, 'b.html'));
    symlinkSync(target, join(dir, 'b.html'));
    let error: unknown;
    try {
      await writeOutputFolder(dir, { files: files({ 'a.html': 'A2', 'b.html': 'B2' }), removeStale: true });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NotOwnOutputError);
    expect((error as NotOwnOutputError).names).toEqual(['b.html (a symbolic link)']);
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(readFileSync(join(dir, 'a.html'), 'utf8')).toBe('A');
  });

  it('a stale name that is now a link is removed as a link, never followed', async () => {
    await writeOutputFolder(dir, { files: files({ 'a.html': 'A', 'b.html': 'B' }), removeStale: true });
    const target = join(root, 'precious.txt');
    writeFileSync(target, 'precious');
    rmSync(join(dir, 'b.html'));
    symlinkSync(target, join(dir, 'b.html'));
    await writeOutputFolder(dir, { files: files({ 'a.html': 'A' }), removeStale: true });
    expect(existsSync(join(dir, 'b.html'))).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('precious');
  });

  it('a hostile manifest cannot make it remove anything outside its own names', async () => {
    mkdirSync(join(root, 'keep'));
    writeFileSync(join(root, 'keep', 'x.txt'), 'x');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.md'), 'notes');
    writeFileSync(join(dir, MANIFEST), JSON.stringify({ files: ['notes.md', '../keep/x.txt', '/etc/hostname', '.git', '', 'keep', 'notes.md.tmp', MANIFEST] }));
    await writeOutputFolder(dir, { files: files({ 'a.html': 'A' }), removeStale: true });
    expect(readFileSync(join(root, 'keep', 'x.txt'), 'utf8')).toBe('x');
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('notes');
  });

  it('the folder a link, or a file: refused, nothing written through it', async () => {
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, dir);
    await expect(writeOutputFolder(dir, { files: files({ 'a.html': 'A' }), removeStale: true })).rejects.toThrow(NotOwnFileError);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readlinkSync(dir)).toBe(elsewhere);
    const file = join(root, 'file');
    writeFileSync(file, 'f');
    await expect(writeOutputFolder(file, { files: files({ 'a.html': 'A' }), removeStale: true })).rejects.toThrow(NotOwnFileError);
    expect(lstatSync(file).isFile()).toBe(true);
  });

  it('refuses a name that is a path, or not of a kind it writes', async () => {
    await expect(writeOutputFolder(dir, { files: files({ '../x.html': 'A' }), removeStale: true })).rejects.toThrow(/not a file name/);
    await expect(writeOutputFolder(dir, { files: files({ 'x.md': 'A' }), removeStale: true })).rejects.toThrow(/not a file name/);
  });

  it("the formatter guard: written once and kept with a user's edit; a user's own Prettier config there is left alone and not listed", async () => {
    await writeOutputFolder(dir, { files: files({ 'a.html': 'A' }), removeStale: true });
    writeFileSync(join(dir, FORMATTER_GUARD), 'semi: false\n');
    await writeOutputFolder(dir, { files: files({ 'b.html': 'B' }), removeStale: true });
    expect(readFileSync(join(dir, FORMATTER_GUARD), 'utf8')).toBe('semi: false\n');
    expect(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')).files).toEqual([FORMATTER_GUARD, 'b.html']);

    const other = join(root, 'docs');
    mkdirSync(other);
    writeFileSync(join(other, FORMATTER_GUARD), 'useTabs: true\n');
    await writeOutputFolder(other, { files: files({ 'a.html': 'A' }), removeStale: true });
    await writeOutputFolder(other, { files: files({ 'b.html': 'B' }), removeStale: true });
    expect(readFileSync(join(other, FORMATTER_GUARD), 'utf8')).toBe('useTabs: true\n');
    expect(JSON.parse(readFileSync(join(other, MANIFEST), 'utf8')).files).toEqual(['b.html']);

    const pkg = join(root, 'pkg');
    mkdirSync(pkg);
    writeFileSync(join(pkg, '.prettierrc'), '{}\n');
    await writeOutputFolder(pkg, { files: files({ 'a.html': 'A' }), removeStale: true });
    expect(existsSync(join(pkg, FORMATTER_GUARD))).toBe(false);
  });
});
