/**
 * Markdown adverts end to end: the built binary against a sandbox on 127.0.0.1. A folder mixing YAML
 * and Markdown (and a README.md) syncs; the service receives the body as the docs say, byte for byte;
 * an edit of a Markdown advert sends that advert only; `update <ref> file.md` sends the body.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobs } from './helpers.js';
import { liveSandbox, type LiveSandbox } from './sandbox.js';
import { advertYaml } from '../commands/harness.js';
import { markdownAdvert } from '../support/markdown-adverts.js';
import { tempDir } from '../support/temp-dirs.js';

const requests = (log: string[]) => log.map((l) => l.split(' ').slice(0, 3).join(' '));

async function stored(s: LiveSandbox): Promise<Record<string, Record<string, unknown>>> {
  const all = (await (await fetch(`${s.baseUrl}/_sandbox/adverts`)).json()) as Record<string, { reference: string; advert: Record<string, unknown> }[]>;
  return Object.fromEntries(
    Object.values(all)
      .flat()
      .map((a) => [a.reference, a.advert]),
  );
}

function folder(files: Record<string, string>): string {
  const dir = tempDir('jobs-md-sync-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('Markdown adverts against the sandbox (built binary)', () => {
  it('sync of a folder mixing YAML and Markdown sends the body as written; an edit sends that advert only', async () => {
    const s = await liveSandbox();
    const body = '\n\n## The job\r\n\r\nBuild *robots*:\tfast.  \r\n---\r\n  - indented: yes\r\n\r\n\r\n';
    const dir = folder({ 'a.yaml': advertYaml('MD-YAML'), 'b.md': markdownAdvert('MD-MD', body), 'README.md': '# Our adverts\n\nNot an advert.\n' });
    const first = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(first.stderr).toContain('✔ in sync: 2 created');
    expect(first.code).toBe(0);
    const adverts = await stored(s);
    expect(adverts['MD-YAML']!.job_description).toBe('Build robots.');
    // Blank lines around the text dropped, CRLF as \n, one final line break; the rest byte for byte.
    expect(adverts['MD-MD']!.job_description).toBe('## The job\n\nBuild *robots*:\tfast.  \n---\n  - indented: yes\n');
    expect(adverts['MD-MD']!.title).toBe('Engineer');

    s.log.length = 0;
    const again = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(again.stderr).toContain('✔ in sync: 2 unchanged');
    expect(s.log).toEqual([]);

    // A final newline added by an editor changes no byte that is sent: nothing to do.
    writeFileSync(join(dir, 'b.md'), `${readFileSync(join(dir, 'b.md'), 'utf8')}\n\n`);
    expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).stderr).toContain('✔ in sync: 2 unchanged');
    expect(s.log).toEqual([]);

    writeFileSync(join(dir, 'b.md'), markdownAdvert('MD-MD', 'New text.\n'));
    const plan = await jobs(['sync', '.', '--dry-run'], { cwd: dir, env: s.env });
    expect(plan.stdout).toBe('~ MD-MD  b.md  (job_description)\n');
    const sent = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(sent.stderr).toContain('✔ in sync: 1 updated, 1 unchanged');
    expect(requests(s.log)).toEqual(['PUT /jobs/MD-MD 200']);
    expect((await stored(s))['MD-MD']!.job_description).toBe('New text.\n');
  });

  it('sync sends nothing when a Markdown advert is malformed, and says where (exit 3)', async () => {
    const s = await liveSandbox();
    const dir = folder({ 'a.yaml': advertYaml('MD-A'), 'b.md': `${markdownAdvert('MD-B', '')}\n`, 'c.md': 'Just notes.\n' });
    const r = await jobs(['sync', '.'], { cwd: dir, env: s.env });
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).toContain("b.md:18:1: the body is empty: write the job description below the front matter's closing --- (line 18)");
    expect(r.stdout + r.stderr).toContain('c.md:1:1: no front matter (line 1 is not ---)');
    expect(s.log).toEqual([]);
  });

  it('publish and update <reference> file.md send the body as job_description', async () => {
    const s = await liveSandbox();
    const dir = folder({ 'b.md': markdownAdvert('MD-UP', 'First.\n'), 'patch.md': '---\nseniority: 4\n---\nSecond, from Markdown.\n' });
    expect((await jobs(['publish', 'b.md'], { cwd: dir, env: s.env })).code).toBe(0);
    expect((await stored(s))['MD-UP']!.job_description).toBe('First.\n');
    s.log.length = 0;
    const r = await jobs(['update', 'MD-UP', 'patch.md'], { cwd: dir, env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(requests(s.log)).toEqual(['PUT /jobs/MD-UP 200']);
    const after = (await stored(s))['MD-UP']!;
    expect(after.job_description).toBe('Second, from Markdown.\n');
    expect(after.seniority).toBe(4);
    expect(after.title).toBe('Engineer');
  });
});
