/**
 * `npm test` needs only Node and npm: every test that runs a real component (a shell, a browser, a
 * proxy, a keyring, man, pre-commit, a JUnit reader, a tmpfs mount) is a `*.real.test.ts`, run by
 * `npm run test:real`, which checks for all of them first (scripts/real-components.mjs). A new test
 * that spawns zsh under another name fails here, naming the file and the command.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { needsReal, realSetProblems, testSources } from '../support/real-set.js';

const ROOT = join(import.meta.dirname, '../..');
const COMMANDS = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts/real-components.mjs'), '--commands'], { encoding: 'utf8' })) as string[];

describe('the real-component tests are the *.real.test.ts files', () => {
  it('every test that runs a real component is named *.real.test.ts, and every *.real.test.ts runs one', () => {
    expect(realSetProblems(testSources(ROOT), COMMANDS)).toEqual([]);
  });

  it('finds a spawn of a real component, directly or through a helper, and a real test that needs none', () => {
    // Quoted through q, so that this file does not name the commands itself.
    const q = "'";
    const files = [
      { path: 'test/e2e/prompt.test.ts', text: `import { spawnSync } from 'node:child_process';\nspawnSync(${q}zsh${q}, ['-c', 'jobs']);\n` },
      { path: 'test/support/browser.ts', text: `import { spawn } from 'node:child_process';\nspawn(process.env.B ?? ${q}/usr/bin/chromium${q}, []);\n` },
      { path: 'test/core/report/page.test.ts', text: "import { open } from '../../support/browser.js';\n" },
      {
        path: 'test/cli/completion.test.ts',
        text: `import { spawnSync } from 'node:child_process';\nspawnSync(process.execPath, ['jobs.js', 'completion', ${q}zsh${q}]);\n`,
      },
      { path: 'test/core/x.real.test.ts', text: "import { it } from 'vitest';\n" },
    ];
    expect(needsReal(files, COMMANDS)).toEqual(
      new Map([
        ['test/e2e/prompt.test.ts', 'runs zsh'],
        ['test/support/browser.ts', 'runs /usr/bin/chromium'],
        ['test/core/report/page.test.ts', 'imports test/support/browser.ts (runs /usr/bin/chromium)'],
      ]),
    );
    expect(realSetProblems(files, COMMANDS)).toEqual([
      'test/e2e/prompt.test.ts runs zsh: name it test/e2e/prompt.real.test.ts (npm run test:real), or move those tests into one',
      'test/core/report/page.test.ts imports test/support/browser.ts (runs /usr/bin/chromium): name it test/core/report/page.real.test.ts (npm run test:real), or move those tests into one',
      'test/core/x.real.test.ts needs no real component: name it test/core/x.test.ts (npm test)',
    ]);
  });
});
