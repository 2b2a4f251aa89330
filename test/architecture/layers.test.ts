import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coreViolations } from '../support/layers.js';

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

describe('the layer check itself', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A src/ folder made of the given files. */
  function tree(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'jobs-layers-'));
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
      'core/sync/plan.ts': "export const a = 1;\n",
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
});
