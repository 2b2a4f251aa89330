/**
 * Which boot of the machine this process runs in. Within one boot, every write(2) that returned is
 * in the file for any later reader, even if its process was killed before an fsync: only a crash of
 * the machine (a power cut, a panic) loses unsynced writes, and that starts a new boot. The events
 * journal rests on it (see events/journal.ts). Linux says it; elsewhere it is unknown, and callers
 * then assume the worst.
 */
import { readFileSync } from 'node:fs';

let known: string | undefined | null = null;

/** The kernel's id of this boot, or undefined where it cannot be read. */
export function bootId(): string | undefined {
  if (known === null) {
    try {
      const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      known = /^[0-9a-f-]{16,64}$/.test(id) ? id : undefined;
    } catch {
      known = undefined;
    }
  }
  return known;
}
