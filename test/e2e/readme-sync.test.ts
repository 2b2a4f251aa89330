/**
 * The sync page's `jobs sync --dry-run` example (docs/sync.md) is what the tool prints: the scenario
 * it describes is built (the examples published, then one advert edited, one added, one removed) and
 * the command from the page runs against a sandbox on 127.0.0.1. When the output or the page drifts,
 * this fails.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobs, ROOT } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { tempDir } from '../support/temp-dirs.js';

/** The first plain code block of docs/sync.md: the command after `$ `, then what it prints. */
function readmeExample(): { args: string[]; lines: string[] } {
  const section = readFileSync(join(ROOT, 'docs/sync.md'), 'utf8');
  const block = /```\n([\s\S]*?)```/.exec(section)![1]!.trimEnd().split('\n');
  const [command, ...lines] = block;
  const words = command!.replace(/^\$ /, '').split(/\s+/);
  expect(words[0]).toMatch(/^jobs(-cli)?$/);
  return { args: words.slice(1), lines };
}

describe("the sync page's example", () => {
  it('prints exactly what docs/sync.md shows', async () => {
    const { args, lines } = readmeExample();
    const s = await liveSandbox();
    const dir = tempDir('jobs-readme-sync-');
    const adverts = join(dir, 'adverts');
    cpSync(join(ROOT, 'examples/adverts'), adverts, { recursive: true });
    const backend = join(adverts, 'backend-engineer.yaml');
    const original = readFileSync(backend, 'utf8');
    writeFileSync(join(adverts, 'old-role.yaml'), original.replace('reference: ACME-0042', 'reference: ACME-0031'));
    const first = await jobs(['sync', 'adverts/'], { cwd: dir, env: s.env });
    expect(first.code, first.stderr).toBe(0);

    writeFileSync(join(adverts, 'new-role.yaml'), original.replace('reference: ACME-0042', 'reference: ACME-0045'));
    rmSync(join(adverts, 'old-role.yaml'));
    writeFileSync(
      backend,
      original.replace(/^salary_text: .*$/m, 'salary_text: 700 000 - 800 000 NOK').replace('  - PostgreSQL\n', '  - PostgreSQL\n  - Kafka\n'),
    );

    const before = s.log.length;
    const run = await jobs(args, { cwd: dir, env: s.env });
    expect(run.code, run.stderr).toBe(0);
    expect(s.log.length).toBe(before);
    // Plan lines go to stdout, the summary to stderr; the page shows them as a terminal does.
    expect([...run.stdout.trimEnd().split('\n'), ...run.stderr.trimEnd().split('\n')]).toEqual(lines);
  });
});
