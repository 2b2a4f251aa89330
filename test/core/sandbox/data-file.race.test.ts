// A sandbox reads its data file without the lock when it starts: another run may fold the journal
// into a new snapshot while it reads. It must then hold the new snapshot, or the next journal (which
// extends the new one) is applied to the old, and its own compaction drops what only the new held.
// (Seen once in CI: four parallel `--sandbox publish` runs, one run's ten adverts lost.)
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxState, StoredAdvert } from '../../../src/core/sandbox/types.js';
import { tempDir } from '../../support/temp-dirs.js';

/** Runs once, right after the next read of the snapshot: what another process does at that moment. */
let afterNextRead: ((path: string) => void) | undefined;

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readFileSync = ((...args: Parameters<typeof fs.readFileSync>) => {
    const out = fs.readFileSync(...args);
    const hook = afterNextRead;
    if (hook && typeof args[0] === 'string' && args[0].endsWith('state.json')) {
      afterNextRead = undefined;
      hook(args[0]);
    }
    return out;
  }) as typeof fs.readFileSync;
  return { ...fs, default: { ...fs, readFileSync }, readFileSync };
});

const { DataFile } = await import('../../../src/core/sandbox/data-file.js');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stored(reference: string, serial: number): StoredAdvert {
  return {
    owner: 'o',
    reference,
    advert: { reference },
    createdAt: 0,
    updatedAt: 0,
    serial,
    simulated: 0,
    received: 0,
    fixtures: 0,
    unviewed: 0,
    applications: [],
  };
}

function snapshot(references: string[]): string {
  const state: SandboxState = { version: 1, nextSerial: references.length + 1, adverts: references.map((r, i) => stored(r, i + 1)), events: [] };
  return JSON.stringify(state);
}

describe('a sandbox data file read while another run replaces it', () => {
  it('holds the snapshot it names, so what the journal adds after is applied to it', () => {
    const dir = tempDir('jobs-data-race-');
    dirs.push(dir);
    const file = join(dir, 'state.json');
    writeFileSync(file, snapshot(['A']));

    // Right after this run reads [A], another folds its journal in: the snapshot now holds A and B.
    afterNextRead = () => {
      writeFileSync(`${file}.other.tmp`, snapshot(['A', 'B']));
      renameSync(`${file}.other.tmp`, file);
    };
    const data = new DataFile(file);
    const store = data.load();
    expect(store.snapshot().adverts.map((a) => a.reference)).toEqual(['A', 'B']);

    // A third run adds C to the journal of the new snapshot; this one catches up and folds it in.
    const third = new DataFile(file);
    const theirs = third.load();
    theirs.apply({ put: stored('C', 3) });
    third.append(theirs, [{ put: stored('C', 3) }]);
    const caughtUp = data.refresh(store);
    data.compact(caughtUp);
    expect(
      new DataFile(file)
        .load()
        .snapshot()
        .adverts.map((a) => a.reference),
    ).toEqual(['A', 'B', 'C']);
  });
});
