/**
 * File names as CI formats carry them: a line break in a name is escaped in a GitHub annotation's
 * `file=` (%0A, as GitHub's workflow commands expect; it became a space, naming another file), and
 * SARIF's artifactLocation.uri is a relative URI reference, percent-encoded (RFC 3986).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'jobs-odd-names-'));
writeFileSync(join(dir, 'bad\nname.yaml'), 'reference: A\ntitle: ""\n');
writeFileSync(join(dir, 'sp ace%,é.yaml'), 'reference: B\ntitle: ""\n');
const env = isolatedEnv();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(env.HOME!, { recursive: true, force: true });
});

describe('odd file names in CI formats (built binary)', () => {
  it('--output github: the name escaped per the workflow command rules', async () => {
    const r = await jobs(['validate', '--output', 'github', '.'], { cwd: dir, env });
    expect(r.code).toBe(3);
    const blank = r.stdout.split('\n').filter((l) => l.includes('title=jobs%3A blank'));
    expect(blank).toEqual([
      '::error file=bad%0Aname.yaml,line=2,col=8,title=jobs%3A blank::title: must not be blank [blank]',
      '::error file=sp ace%25%2Cé.yaml,line=2,col=8,title=jobs%3A blank::title: must not be blank [blank]',
    ]);
  });

  it('--output sarif: artifactLocation.uri percent-encoded', async () => {
    const r = await jobs(['validate', '--output', 'sarif', '.'], { cwd: dir, env });
    expect(r.code).toBe(3);
    const log = JSON.parse(r.stdout) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    const uris = new Set(log.runs[0]!.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri));
    expect([...uris].sort()).toEqual(['bad%0Aname.yaml', 'sp%20ace%25,%C3%A9.yaml']);
  });
});
