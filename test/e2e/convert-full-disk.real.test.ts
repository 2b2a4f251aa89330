/**
 * jobs convert --remove on a real, full tmpfs (tests run as root): a source is removed only once its
 * new file is written whole (and synced, with its folder) and reads back as its adverts. The file
 * that does not fit is named with the cause, its source is kept, no temp file is left, and the files
 * converted before it are reported.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from './helpers.js';
import { advertYaml } from '../commands/harness.js';
import { mountTmpfs, type Tmpfs } from '../support/tmpfs.js';

let disk: Tmpfs;
beforeAll(() => {
  disk = mountTmpfs(256);
});
afterAll(() => disk.unmount());
afterEach(() => {
  disk.readWrite();
  disk.free();
});

const all = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();

describe('jobs convert on a full disk', () => {
  it('converts what fits, keeps the source of what does not, reports both (exit 2)', async () => {
    const dir = join(disk.dir, 'adverts');
    mkdirSync(join(dir, 'a'), { recursive: true });
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'a', 'small.yaml'), advertYaml('S-1'));
    // Three pages and more: it cannot fit in the page the small file's source frees.
    writeFileSync(join(dir, 'b', 'large.yaml'), advertYaml('L-1').replace(/^job_description: .*$/m, `job_description: ${'x'.repeat(14_000)}`));
    disk.fill(4096);
    const run = await jobs(['convert', '.', '--remove'], { cwd: dir });
    expect(run.stderr).toContain('✔ a/small.yaml -> a/small.md');
    expect(run.stderr).toMatch(/cannot write b\/large\.md: .*(space|full).*; nothing was written for b\/large\.yaml, which is left as it was/i);
    expect(run.code).toBe(2);
    expect(all(dir)).toEqual(['a', 'a/small.md', 'b', 'b/large.yaml']);
  });

  it('on a read-only disk nothing is removed', async () => {
    const dir = join(disk.dir, 'ro');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.yaml'), advertYaml('R-1'));
    disk.readOnly();
    const run = await jobs(['convert', '.', '--remove'], { cwd: dir });
    expect(run.stderr).toMatch(/cannot write a\.md: .*read-only.*; nothing was written for a\.yaml, which is left as it was/i);
    expect(run.code).toBe(2);
    expect(all(dir)).toEqual(['a.yaml']);
  });
});
