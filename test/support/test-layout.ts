/**
 * Where a test belongs: `test/` mirrors `src/`. The test of `src/core/sync/state.ts` is
 * `test/core/sync/state.test.ts`, an aspect of it `test/core/sync/state.<aspect>.test.ts`. Tests that
 * spawn the built binary live in `test/e2e/`; `test/adopt/` (docs and packaging held to the code),
 * `test/architecture/` (rules on the source) and `test/support/` (shared helpers) keep their own.
 *
 * For a test that is not named after an existing source file, `placeFor` says where it should go,
 * as exactly as the source tree and the test's own imports allow: sources move (a command into a
 * folder, a file into another folder, one file into pieces) and the tests must follow.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, sep } from 'node:path';

/** Top-level folders of test/ with a layout of their own (not mirrors of src/). */
export const OWN_LAYOUT = ['e2e', 'adopt', 'architecture', 'support', 'fixtures'];

export interface TestName {
  /** The folder under test/ (posix, '' for test/ itself), e.g. `core/sync`. */
  dir: string;
  /** The source file's name the test claims, e.g. `state`. */
  base: string;
  /** What follows it, e.g. `lock` in `state.lock.test.ts`; '' for none. */
  aspect: string;
}

export function parseTestPath(testPath: string): TestName {
  const parts = testPath.split('/');
  const file = parts.pop()!;
  const stem = file.replace(/\.test\.ts$/, '');
  const dot = stem.indexOf('.');
  return { dir: parts.slice(1).join('/'), base: dot < 0 ? stem : stem.slice(0, dot), aspect: dot < 0 ? '' : stem.slice(dot + 1) };
}

const testFileFor = (source: string, aspect: string) => `test/${source.replace(/^src\//, '').replace(/\.ts$/, '')}${aspect ? `.${aspect}` : ''}.test.ts`;

/**
 * The source files a test's relative imports reach in src/ (static and dynamic imports, vi.mock),
 * in the order written: `src/core/sync/state.ts`, ...
 */
export function sourceImports(testPath: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b(?:from|import|mock)\s*\(?\s*'(\.\.?\/[^']+)'/g)) {
    const target = posix.normalize(posix.join(posix.dirname(testPath), m[1]!)).replace(/\.js$/, '.ts');
    if (target.startsWith('src/') && !found.includes(target)) found.push(target);
  }
  return found;
}

/**
 * Where a test should go, or undefined when its name is right. `sources` lists src/'s files (posix,
 * `src/...`); `imports` are the sources the test imports (see sourceImports).
 */
export function placeFor(testPath: string, sources: readonly string[], imports: readonly string[]): string | undefined {
  const { dir, base, aspect } = parseTestPath(testPath);
  const claimed = `src/${dir ? `${dir}/` : ''}${base}.ts`;
  if (sources.includes(claimed)) return undefined;
  const why = `${testPath} is not named after a source file (${claimed} does not exist).`;
  const move = (source: string, reason: string) => `${why} ${reason}: git mv ${testPath} ${testFileFor(source, aspect)}`;

  // 1. The source became a folder (src/cli/commands/publish.ts -> src/cli/commands/publish/...):
  //    the test goes into the mirror of the folder, named after the file there it imports.
  const folder = claimed.replace(/\.ts$/, '/');
  const inFolder = sources.filter((s) => s.startsWith(folder));
  if (inFolder.length > 0) {
    const imported = inFolder.filter((s) => imports.includes(s));
    const named = inFolder.filter((s) => /\/(index|command)\.ts$/.test(s) || s.endsWith(`/${base}.ts`));
    const pick = imported.length === 1 ? imported : named.length === 1 ? named : inFolder.length === 1 ? inFolder : [];
    if (pick.length === 1) return move(pick[0]!, `${folder} is a folder now and ${pick[0]} is the file it tests`);
    return `${why} ${folder} is a folder now: git mv ${testPath} to the test of the file there it tests, one of ${inFolder.map((s) => testFileFor(s, aspect)).join(', ')}`;
  }
  // 2. The source moved to another folder under the same name (src/core/validation/check-files.ts -> src/core/bulk/check-files.ts).
  const sameName = sources.filter((s) => s.endsWith(`/${base}.ts`));
  if (sameName.length === 1) return move(sameName[0]!, `${sameName[0]} has that name`);
  // 3. The source it imports that is nearest its name (a split file's piece, a renamed file): most
  //    folders shared with the test's, then most words of its name in the path; the first on a tie.
  //    Its old name stays as the aspect (two tests of one source must not land on one name) unless
  //    the new path holds every word of it.
  const nearest = closestImport(
    dir,
    base,
    imports.filter((s) => sources.includes(s)),
  );
  if (nearest) {
    // events-run -> events/run: the new path says all the old name did, so only the aspect stays.
    const parts = nearest.replace(/\.ts$/, '').split(/[/-]/);
    const renamedOnly = base.split('-').every((w) => parts.includes(w));
    const kept = renamedOnly ? aspect : aspect ? `${base}.${aspect}` : base;
    return `${why} Of what it imports, ${nearest} is nearest its name: git mv ${testPath} ${testFileFor(nearest, kept)}`;
  }
  return `${why} Name it after the source file whose behaviour it tests, test/<path under src/ without .ts>[.<aspect>].test.ts (${
    sameName.length > 1
      ? `candidates: ${sameName.map((s) => testFileFor(s, aspect)).join(', ')}`
      : 'for example test/core/sync/state.lock.test.ts for src/core/sync/state.ts'
  }); a test that spawns the built binary goes to test/e2e/<command>[-<aspect>].test.ts.`;
}

function closestImport(dir: string, base: string, imports: readonly string[]): string | undefined {
  const folders = dir.split('/');
  const words = base.split('-');
  const score = (source: string) => {
    const parts = source
      .replace(/^src\//, '')
      .replace(/\.ts$/, '')
      .split('/');
    let shared = 0;
    while (shared < folders.length && parts[shared] === folders[shared]) shared++;
    const named = words.filter((w) => parts.some((p) => p.split('-').includes(w))).length;
    return shared * 100 + named;
  };
  let best: string | undefined;
  for (const source of imports) if (best === undefined || score(source) > score(best)) best = source;
  return best;
}

function filesUnder(root: string, dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return filesUnder(root, path, keep);
    return keep(name) ? [path.split(sep).join('/')] : [];
  });
}

/** Every test file of the repository at `root` outside the folders with a layout of their own, and where each should go. */
export function misplacedTests(root: string): { test: string; place: string }[] {
  const sources = filesUnder(root, 'src', (n) => n.endsWith('.ts') && !n.endsWith('.d.ts'));
  const tests = filesUnder(root, 'test', (n) => n.endsWith('.test.ts')).filter((t) => !OWN_LAYOUT.includes(t.split('/')[1]!));
  return tests.flatMap((test) => {
    const place = placeFor(test, sources, sourceImports(test, readFileSync(join(root, test), 'utf8')));
    return place === undefined ? [] : [{ test, place }];
  });
}
