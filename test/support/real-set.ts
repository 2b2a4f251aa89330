/**
 * Which tests need real components (scripts/real-components.mjs): a test file or helper under test/
 * that can start processes (it imports node:child_process, support/run-process.ts or a helper that
 * does) and hands one of the components' commands, by name or path, to a call (spawn, existsSync) or
 * gives it as the fallback of `??`, or imports, directly or
 * through other helpers, a helper that does. Such a test file must be named `*.real.test.ts`, so
 * that `npm test` (Node and npm only) never runs it; and a `*.real.test.ts` must need one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';

export interface TestSource {
  /** Posix path from the repository root, `test/...`. */
  path: string;
  text: string;
}

const SPAWNS = /from 'node:child_process'|\/support\/run-process\.js'/;

/** A command's name or path handed to a call as its first argument, or given as the fallback of `??`. */
function namesCommand(text: string, commands: readonly string[]): string | undefined {
  for (const m of text.matchAll(/(?:\(|\?\?)\s*(['"`])((?:\/[\w.-]+)*\/?[\w.-]+)\1/g)) {
    const base = m[2]!.split('/').pop()!;
    if (commands.includes(base)) return m[2];
  }
  return undefined;
}

function relativeImports(path: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.\.?\/[^']+)'/g)) {
    found.push(posix.normalize(posix.join(posix.dirname(path), m[1]!)).replace(/\.js$/, '.ts'));
  }
  return found;
}

/** Each file that needs a real component, with why (the command it names, or the helper it imports). */
export function needsReal(files: readonly TestSource[], commands: readonly string[]): Map<string, string> {
  const imports = new Map(files.map((f) => [f.path, relativeImports(f.path, f.text)]));
  // What can start a process: child_process, run-process.ts, or a helper that imports one of them.
  const spawns = new Set(files.filter((f) => SPAWNS.test(f.text)).map((f) => f.path));
  for (let changed = true; changed;) {
    changed = false;
    for (const f of files) {
      if (!spawns.has(f.path) && imports.get(f.path)!.some((i) => spawns.has(i))) {
        spawns.add(f.path);
        changed = true;
      }
    }
  }
  const why = new Map<string, string>();
  for (const f of files) {
    const named = spawns.has(f.path) ? namesCommand(f.text, commands) : undefined;
    if (named) why.set(f.path, `runs ${named}`);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const f of files) {
      if (why.has(f.path)) continue;
      const helper = imports.get(f.path)!.find((i) => why.has(i));
      if (helper) {
        why.set(f.path, `imports ${helper} (${why.get(helper)})`);
        changed = true;
      }
    }
  }
  return why;
}

export const isRealTest = (path: string) => path.endsWith('.real.test.ts');

/** What breaks the split: a test that needs a real component outside the real set, and a real test that needs none. */
export function realSetProblems(files: readonly TestSource[], commands: readonly string[]): string[] {
  const why = needsReal(files, commands);
  const problems: string[] = [];
  for (const f of files) {
    if (!f.path.endsWith('.test.ts')) continue;
    const reason = why.get(f.path);
    if (reason && !isRealTest(f.path))
      problems.push(`${f.path} ${reason}: name it ${f.path.replace(/\.test\.ts$/, '.real.test.ts')} (npm run test:real), or move those tests into one`);
    if (!reason && isRealTest(f.path))
      problems.push(`${f.path} needs no real component: name it ${f.path.replace(/\.real\.test\.ts$/, '.test.ts')} (npm test)`);
  }
  return problems;
}

/** Every .ts file under test/ (fixtures aside). */
export function testSources(root: string): TestSource[] {
  const out: TestSource[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(posix.join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (path !== 'test/fixtures') walk(path);
      } else if (entry.name.endsWith('.ts')) out.push({ path, text: readFileSync(posix.join(root, path), 'utf8') });
    }
  };
  walk('test');
  return out;
}
