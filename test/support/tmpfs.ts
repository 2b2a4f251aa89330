/**
 * A real small tmpfs for full and read-only disk tests (tests and CI run as root): mount one, fill
 * it to the last byte, remount it read-only; every test file unmounts its own in afterAll.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, fstatSync, ftruncateSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';

export interface Tmpfs {
  dir: string;
  /** Writes a filler file until the file system has not one byte left, then frees `leaveBytes` of it. */
  fill(leaveBytes?: number): void;
  /** Removes the filler. */
  free(): void;
  readOnly(): void;
  readWrite(): void;
  unmount(): void;
}

function run(command: string, args: string[]): void {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${r.stderr || r.error?.message}`);
}

export function mountTmpfs(sizeKiB: number): Tmpfs {
  const dir = tempDir('jobs-tmpfs-');
  run('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0755`, 'tmpfs', dir]);
  const filler = join(dir, '.filler');
  return {
    dir,
    fill(leaveBytes = 0) {
      const fd = openSync(filler, 'a');
      try {
        // Pages first, then single bytes: nothing is left over for a small file either.
        for (const size of [4096, 1]) {
          const chunk = Buffer.alloc(size, 0x20);
          for (;;) {
            try {
              writeSync(fd, chunk);
            } catch {
              break;
            }
          }
        }
        if (leaveBytes > 0) ftruncateSync(fd, Math.max(0, fstatSync(fd).size - leaveBytes));
      } finally {
        closeSync(fd);
      }
    },
    free: () => rmSync(filler, { force: true }),
    readOnly: () => run('mount', ['-o', 'remount,ro', dir]),
    readWrite: () => run('mount', ['-o', 'remount,rw', dir]),
    unmount() {
      spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
