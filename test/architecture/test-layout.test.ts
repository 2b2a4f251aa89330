/**
 * The test of a behaviour is found from its source file's name: test/ mirrors src/ (see
 * test/support/test-layout.ts). A test outside test/e2e, test/adopt, test/architecture and
 * test/support that is not named after an existing source file fails here, with the `git mv` that
 * puts it where it belongs (sources move: the test follows).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { misplacedTests, placeFor } from '../support/test-layout.js';

const ROOT = join(import.meta.dirname, '../..');

/** Tests that may keep a name that is not a source file's, each with its reason. Keep it short. */
const ALLOWED: Record<string, string> = {};

describe('test/ mirrors src/', () => {
  it('every test outside e2e, adopt, architecture and support is named after an existing source file', () => {
    const misplaced = misplacedTests(ROOT).filter((m) => !(m.test in ALLOWED));
    expect(
      misplaced.map((m) => m.place),
      'move each test as said (or, if it is justified, add it to ALLOWED with its reason)',
    ).toEqual([]);
    // An allowance for a test that is gone or now well named is removed.
    const stillMisplaced = new Set(misplacedTests(ROOT).map((m) => m.test));
    expect(Object.keys(ALLOWED).filter((t) => !stillMisplaced.has(t))).toEqual([]);
  });
});

describe('where a misplaced test should go', () => {
  const sources = [
    'src/core/sync/state.ts',
    'src/core/sync/plan.ts',
    'src/core/bulk/check-files.ts',
    'src/cli/commands/publish/command.ts',
    'src/cli/commands/publish/run.ts',
    'src/cli/commands/sync/run.ts',
    'src/core/sync/state/model.ts',
    'src/core/sync/state/file-format.ts',
    'src/core/util/plural.ts',
  ];
  const pieces = sources.filter((s) => s !== 'src/core/sync/state.ts');

  it('says nothing of a test named after its source, with or without an aspect', () => {
    expect(placeFor('test/core/sync/state.test.ts', sources, [])).toBeUndefined();
    expect(placeFor('test/core/sync/plan.prune.test.ts', sources, [])).toBeUndefined();
  });

  it('follows a source moved to another folder under its name', () => {
    expect(placeFor('test/core/validation/check-files.large-files.test.ts', sources, [])).toBe(
      'test/core/validation/check-files.large-files.test.ts is not named after a source file (src/core/validation/check-files.ts does not exist). ' +
        'src/core/bulk/check-files.ts has that name: git mv test/core/validation/check-files.large-files.test.ts test/core/bulk/check-files.large-files.test.ts',
    );
  });

  it('follows a source that became a folder, to the file there the test imports, or the one file there', () => {
    expect(placeFor('test/core/sync/state.lock.test.ts', pieces, ['src/core/sync/state/file-format.ts'])).toMatch(
      /git mv test\/core\/sync\/state\.lock\.test\.ts test\/core\/sync\/state\/file-format\.lock\.test\.ts$/,
    );
    expect(placeFor('test/cli/commands/publish.test.ts', sources, [])).toMatch(
      /git mv test\/cli\/commands\/publish\.test\.ts test\/cli\/commands\/publish\/command\.test\.ts$/,
    );
    expect(placeFor('test/cli/commands/sync.test.ts', sources, [])).toMatch(
      /git mv test\/cli\/commands\/sync\.test\.ts test\/cli\/commands\/sync\/run\.test\.ts$/,
    );
  });

  it('lists the choices when a folder holds several files and the test imports none of them', () => {
    expect(placeFor('test/core/sync/state.test.ts', pieces, [])).toBe(
      'test/core/sync/state.test.ts is not named after a source file (src/core/sync/state.ts does not exist). src/core/sync/state/ is a folder now: ' +
        'git mv test/core/sync/state.test.ts to the test of the file there it tests, one of test/core/sync/state/model.test.ts, test/core/sync/state/file-format.test.ts',
    );
  });

  it('names a test of the old layout after the source it imports first, or says how to name it', () => {
    expect(placeFor('test/unit/plurals.test.ts', sources, ['src/core/util/plural.ts', 'src/core/sync/plan.ts'])).toMatch(
      /Of what it imports, src\/core\/util\/plural\.ts is nearest its name: git mv test\/unit\/plurals\.test\.ts test\/core\/util\/plural\.plurals\.test\.ts$/,
    );
    const commands = [...sources, 'src/core/api/client.ts', 'src/cli/context.ts', 'src/cli/commands/events/run.ts'];
    expect(
      placeFor('test/cli/commands/events-run.interrupt.test.ts', commands, ['src/core/api/client.ts', 'src/cli/context.ts', 'src/cli/commands/events/run.ts']),
    ).toMatch(
      /src\/cli\/commands\/events\/run\.ts is nearest its name: git mv test\/cli\/commands\/events-run\.interrupt\.test\.ts test\/cli\/commands\/events\/run\.interrupt\.test\.ts$/,
    );
    expect(placeFor('test/commands/first-run.test.ts', sources, [])).toMatch(
      /^test\/commands\/first-run\.test\.ts is not named after a source file .+ Name it after the source file whose behaviour it tests, .+ test\/e2e\/<command>\[-<aspect>\]\.test\.ts\.$/,
    );
  });
});
