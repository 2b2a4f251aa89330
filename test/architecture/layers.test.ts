import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coreOrderViolations, coreViolations } from '../support/layers.js';
import { tempDir } from '../support/temp-dirs.js';

const SRC = join(import.meta.dirname, '../../src');

describe('the core knows no terminal', () => {
  it('no file in src/core imports the CLI or a terminal package, writes to stdout or stderr, or exits', () => {
    expect(coreViolations(SRC)).toEqual([]);
  });

  it('the public API (src/index.ts) is the core, plus the CLI run in-process', async () => {
    const { readFileSync } = await import('node:fs');
    const specifiers = [...readFileSync(join(SRC, 'index.ts'), 'utf8').matchAll(/^(?:export|import)\b[^;]*?from '([^']+)'/gm)].map((m) => m[1]!);
    expect(specifiers.length).toBeGreaterThan(10);
    expect(specifiers.filter((s) => !s.startsWith('./core/'))).toEqual(['./cli/main.js']);
  });
});

/**
 * The core's own folders, lowest first: a file imports its own folder and the ones before it. Read
 * from what the folders hold: plain helpers; the error tree; files on disk; the compiled schema;
 * reading adverts (and what a reference may be); settings (and the service's URL and key); the wording checks (which the rules by place call for a
 * neutral title); the rules
 * by place (data and engine, which checking calls); checking adverts; the emulator, which stands alone; the service's client; the records kept per service
 * (published, history, which also records a fast-forwarded sandbox's days) and the report on them;
 * then what drives the client: events, publishing, sync (which publishes and may start the
 * emulator); scaffolding last. Files directly in core/ (version.ts) are '.'.
 * `import type` does not count: types are the shared vocabulary and load nothing.
 */
export const CORE_ORDER = [
  '.',
  'util',
  'errors',
  'storage',
  'generated',
  'adverts',
  'config',
  'wording',
  'rules',
  'validation',
  'bulk',
  'sandbox',
  'api',
  'published',
  'history',
  'report',
  'export',
  'events',
  'publishing',
  'sync',
  'scaffold',
];

/** Wrong-way imports known today, `file -> imported file` (relative to src/core). Each says why it stays. */
const ALLOWED = [
  // The compiled schema (scripts/generate-validators.mjs) calls its format checks, which import nothing: generated code and its runtime.
  'generated/validators.js -> validation/formats.ts',
];

describe('imports inside the core follow its order', () => {
  it('no core file imports a folder above its own, beyond the known ones listed', () => {
    const found = [...new Set(coreOrderViolations(SRC, CORE_ORDER).map((v) => `${v.file} -> ${v.imports}`))];
    expect(found.filter((v) => !ALLOWED.includes(v))).toEqual([]);
  });

  it('every allowed wrong-way import still exists: delete an entry once its import is gone', () => {
    const found = new Set(coreOrderViolations(SRC, CORE_ORDER).map((v) => `${v.file} -> ${v.imports}`));
    expect(ALLOWED.filter((v) => !found.has(v))).toEqual([]);
  });

  it('every folder of the core has its place in the order', async () => {
    const { readdirSync } = await import('node:fs');
    const folders = readdirSync(join(SRC, 'core'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !CORE_ORDER.includes(f))).toEqual([]);
  });
});

describe('the layer check itself', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A src/ folder made of the given files. */
  function tree(files: Record<string, string>): string {
    dir = tempDir('jobs-layers-');
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  it('names every kind of import that leaves the core, and nothing else', () => {
    const src = tree({
      'core/sync/run.ts': [
        "import { a } from './plan.js';",
        "import { b } from '../util/json.js';",
        "import type { Context } from '../../cli/context.js';",
        "export { c } from '../../cli/output/report.js';",
        "const { d } = await import('../../cli/output/progress.js');",
        "import { Command } from 'commander';",
        "import chalk from 'chalk';",
        "import { createInterface } from 'node:readline';",
        "import { readFileSync } from 'node:fs';",
        "import { parse } from 'yaml';",
        "import schema from '../../../schemas/advert.schema.json';",
        'const input = process.stdin;',
        'process.stderr.write("x");',
      ].join('\n'),
      'core/sync/plan.ts': 'export const a = 1;\n',
      'cli/context.ts': "import { a } from '../core/sync/plan.js';\n",
    });
    expect(coreViolations(src).map((v) => `${v.file}: ${v.what}`)).toEqual([
      'core/sync/run.ts: ../../cli/context.js',
      'core/sync/run.ts: ../../cli/output/report.js',
      'core/sync/run.ts: ../../cli/output/progress.js',
      'core/sync/run.ts: commander',
      'core/sync/run.ts: chalk',
      'core/sync/run.ts: node:readline',
      'core/sync/run.ts: process.stderr',
    ]);
  });

  it('a sibling folder whose name starts like core/ is still outside it', () => {
    const src = tree({ 'core/a.ts': "import { x } from '../core-extras/x.js';\n", 'core-extras/x.ts': 'export const x = 1;\n' });
    expect(coreViolations(src)).toEqual([{ file: 'core/a.ts', what: '../core-extras/x.js' }]);
  });
  it('the order check names an import that runs up the core, and nothing else', () => {
    const src = tree({
      'core/util/a.ts': [
        "import { b } from '../sync/b.js';",
        'import type {',
        '  C,',
        "} from '../sync/c.js';",
        "const d = await import('../events/d.js');",
      ].join('\n'),
      'core/sync/b.ts': "import { a } from '../util/a.js';\nexport { d } from '../events/d.js';\n",
      'core/sync/c.ts': 'export type C = 1;\n',
      'core/events/d.ts': "import { e } from '../extra/e.js';\nexport const d = e;\n",
      'core/extra/e.ts': 'export const e = 1;\n',
    });
    expect(coreOrderViolations(src, ['util', 'events', 'sync'])).toEqual([
      { file: 'events/d.ts', imports: 'extra/e.ts' },
      { file: 'util/a.ts', imports: 'sync/b.ts' },
      { file: 'util/a.ts', imports: 'events/d.ts' },
    ]);
  });
});
