/**
 * jobs convert at its edges (issue 31), built binary: no two adverts of a run come to one name, a
 * Markdown file's front matter is one document, no advert is written under a name a folder walk
 * passes over, anchors and aliases convert, a `locations:` advert converts both ways, and a run
 * stopped by a failure or by Ctrl-C reports every file it converted (and removed) before.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jobs, jobsDriven } from './helpers.js';
import { liveSandbox } from './sandbox.js';
import { advertYaml } from '../commands/harness.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-convert-edges-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
const listing = (dir: string) => readdirSync(dir).sort();
/** The bodies publish would send, by reference; a one-line job description gains its final line break as a Markdown body. */
function bodies(stdout: string): Record<string, unknown> {
  const requests = (JSON.parse(stdout) as { requests: { reference: string; body: Record<string, unknown> }[] }).requests;
  return Object.fromEntries(requests.map((r) => [r.reference, { ...r.body, job_description: String(r.body.job_description).replace(/\n?$/, '\n') }]));
}
/** An advert with `reference: <yaml>` written as given (quoted or not). */
const advert = (reference: string, extra = '') => advertYaml(reference, extra);
const noLocation = (reference: string) => advert(reference).replace(/^location:\n {2}country: NO\n {2}city: Oslo\n/m, '');
const PLACES = 'locations:\n  - country: NO\n    city: Oslo\n  - country: SE\n    city: Stockholm\n';

describe('jobs convert: no two adverts to one name', () => {
  it('a file whose references "2" and "has space" would both give a-2.md: every document by its number, nothing lost (--force --remove)', async () => {
    const dir = folder({ 'a.yaml': `${advert('"2"')}---\n${advert('"has space"')}` });
    const run = await jobs(['convert', 'a.yaml', '--force', '--remove'], { cwd: dir });
    expect(run.stderr.split('\n')[0]).toBe('✔ a.yaml -> a-1.md, a-2.md');
    expect(run.stderr).not.toContain('overwritten');
    expect(run.code).toBe(0);
    expect(listing(dir)).toEqual(['a-1.md', 'a-2.md']);
    const check = await jobs(['publish', '.', '--dry-run', '--json'], { cwd: dir });
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('"reference":"2"');
    expect(check.stdout).toContain('"reference":"has space"');
  });

  it('references that differ only in case are one name on a case-insensitive disk: numbered too', async () => {
    const dir = folder({ 'a.yaml': `${advert('ACME-1')}---\n${advert('acme-1')}` });
    const run = await jobs(['convert', 'a.yaml'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(listing(dir)).toEqual(['a-1.md', 'a-2.md', 'a.yaml']);
  });

  it('two sources with one new name (a.yaml, a.yml): neither is written, both are named, sources kept (exit 2)', async () => {
    const dir = folder({ 'a.yaml': advert('A-1'), 'a.yml': advert('A-2') });
    const run = await jobs(['convert', '.', '--remove', '--force'], { cwd: dir });
    expect(run.stderr).toContain('✖ a.md would be the new name of a.yaml and a.yml; nothing was written for a.yaml (rename one of them first)');
    expect(run.code).toBe(2);
    expect(listing(dir)).toEqual(['a.yaml', 'a.yml']);
  });

  it('a name taken by a file of another advert: nothing of the source is written (no half conversion), exit 2', async () => {
    const dir = folder({ 'a.yaml': `${advert('X')}---\n${advert('Y')}`, 'a-Y.md': 'mine\n' });
    const run = await jobs(['convert', 'a.yaml', '--remove'], { cwd: dir });
    expect(run.stderr).toContain('✖ a-Y.md already exists; nothing was written for a.yaml (pass --force to overwrite it)');
    expect(run.code).toBe(2);
    expect(listing(dir)).toEqual(['a-Y.md', 'a.yaml']);
    expect(readFileSync(join(dir, 'a-Y.md'), 'utf8')).toBe('mine\n');
  });

  it('a symlink at the new name is a taken name too: not followed, not replaced', async () => {
    const dir = folder({ 'a.yaml': advert('L-1'), 'elsewhere.txt': 'keep\n' });
    symlinkSync(join(dir, 'elsewhere.txt'), join(dir, 'a.md'));
    const run = await jobs(['convert', 'a.yaml', '--remove'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(readFileSync(join(dir, 'elsewhere.txt'), 'utf8')).toBe('keep\n');
    expect(existsSync(join(dir, 'a.yaml'))).toBe(true);
  });
});

describe('jobs convert: a name the folder walk passes over is never written', () => {
  for (const [source, target] of [
    ['README.yaml', 'README.md'],
    ['CHANGELOG.de.yaml', 'CHANGELOG.de.md'],
  ] as const) {
    it(`${source} -> ${target} is refused with the reason (exit 3), the source kept; sync --prune then deletes nothing`, async () => {
      const s = await liveSandbox();
      const dir = folder({ [source]: advert('ACME-README') });
      expect((await jobs(['sync', '.'], { cwd: dir, env: s.env })).code).toBe(0);
      const run = await jobs(['convert', '.', '--remove'], { cwd: dir, env: s.env });
      expect(run.stderr).toContain(
        `✖ ${source}:1:1: its new name ${target} is one a folder walk passes over (docs/adverts.md), so validate and sync would not see the advert and sync --prune would delete it from the service; nothing was written: rename ${source} first (git mv), then convert it`,
      );
      expect(run.code).toBe(3);
      expect(listing(dir).filter((n) => !n.startsWith('.'))).toEqual([source]);
      s.log.length = 0;
      const prune = await jobs(['sync', '.', '--prune', '--yes'], { cwd: dir, env: s.env });
      expect(prune.code, prune.stderr).toBe(0);
      expect(s.count(/^DELETE/)).toBe(0);
    });
  }

  it('compose.md --to yaml would be compose.yaml, which a walk passes over: refused', async () => {
    const dir = folder({ 'a.yaml': advert('C-1') });
    expect((await jobs(['convert', 'a.yaml', '--remove'], { cwd: dir })).code).toBe(0);
    const md = readFileSync(join(dir, 'a.md'), 'utf8');
    rmSync(join(dir, 'a.md'));
    writeFileSync(join(dir, 'compose.md'), md);
    const run = await jobs(['convert', 'compose.md', '--to', 'yaml', '--remove'], { cwd: dir });
    expect(run.stderr).toContain('its new name compose.yaml is one a folder walk passes over');
    expect(run.code).toBe(3);
    expect(listing(dir)).toEqual(['compose.md']);
  });
});

describe('jobs convert: a Markdown front matter is one YAML document', () => {
  const twoDocuments = `---\n${noLocation('A').replace(/^job_description: .*\n/m, '')}locations: [{country: NO, city: Oslo}]\n...\n${noLocation('B').replace(/^job_description: .*\n/m, 'job_description: SNEAKY\n')}locations: [{country: NO, city: Bergen}]\n---\n\nThe body.\n`;
  it('validate, publish and convert refuse a second document at its line (exit 3); nothing is sent, nothing written', async () => {
    const s = await liveSandbox();
    const dir = folder({ 'a.md': twoDocuments });
    const line = twoDocuments.split('\n').indexOf('...') + 1;
    const message = `a.md:${line}:1: a second YAML document starts here, in the front matter: a Markdown advert is one advert, its front matter one document (for several places, list them under \`locations:\`; otherwise split it into several .md files)`;
    for (const args of [
      ['validate', '.'],
      ['publish', '.'],
      ['sync', '.'],
      ['convert', '.', '--to', 'yaml', '--remove'],
    ]) {
      const run = await jobs(args, { cwd: dir, env: s.env });
      expect(run.stdout + run.stderr, args.join(' ')).toContain(message);
      expect(run.code, args.join(' ')).toBe(3);
    }
    expect(s.log).toEqual([]);
    expect(listing(dir).filter((n) => !n.startsWith('.'))).toEqual(['a.md']);
  });
});

describe('jobs convert: anchors, places', () => {
  it('an alias of job_description is written out as its text (no crash); the advert reads the same', async () => {
    const yaml = advert('AL-1')
      .replace(/^company_description: .*\n/m, '')
      .replace(/^job_description: .*$/m, 'job_description: &jd Build robots.\ncompany_description: *jd');
    const dir = folder({ 'a.yaml': yaml });
    const before = await jobs(['publish', 'a.yaml', '--dry-run', '--json'], { cwd: dir });
    const run = await jobs(['convert', 'a.yaml', '--remove'], { cwd: dir });
    expect(run.stderr).toContain('✔ a.yaml -> a.md');
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, 'a.md'), 'utf8')).toContain('company_description: Build robots.\n');
    const after = await jobs(['publish', 'a.md', '--dry-run', '--json'], { cwd: dir });
    expect(after.code, after.stderr).toBe(0);
    expect(bodies(after.stdout)).toStrictEqual(bodies(before.stdout));
  });

  it('a file that cannot be written (a folder at its name, --force) is reported; the files around it are converted and reported', async () => {
    const dir = folder({ 'a.yaml': advert('F-1'), 'b.yaml': advert('F-2'), 'c.yaml': advert('F-3') });
    mkdirSync(join(dir, 'b.md'));
    const run = await jobs(['convert', '.', '--remove', '--force'], { cwd: dir });
    const lines = run.stderr.split('\n').filter((l) => /^[✔✖]/.test(l));
    expect(lines[0]).toBe('✔ a.yaml -> a.md');
    expect(lines[1]).toMatch(/^✖ cannot write b\.md: .*; nothing was written for b\.yaml, which is left as it was$/);
    expect(lines[2]).toBe('✔ c.yaml -> c.md');
    expect(lines[3]).toBe('✖ 2 converted, 1 could not be converted');
    expect(run.code).toBe(2);
    expect(listing(dir)).toEqual(['a.md', 'b.md', 'b.yaml', 'c.md']);
    // --json: one document on stdout, every file in it.
    writeFileSync(join(dir, 'd.yaml'), advert('F-4'));
    const json = await jobs(['convert', '.', '--force', '--json'], { cwd: dir });
    const files = (JSON.parse(json.stdout) as { files: { source: string; status: string }[] }).files;
    expect(files.filter((f) => f.status !== 'unchanged').map((f) => [f.source, f.status])).toEqual([
      ['b.yaml', 'failed'],
      ['d.yaml', 'written'],
    ]);
    expect(json.code).toBe(2);
  });

  it('a locations: advert converts to Markdown and back: the same adverts, the list kept as a field', async () => {
    const dir = folder({ 'a.yaml': noLocation('LOC') + PLACES });
    const before = await jobs(['publish', 'a.yaml', '--dry-run', '--json'], { cwd: dir });
    expect(before.code, before.stderr).toBe(0);
    const there = await jobs(['convert', 'a.yaml', '--remove'], { cwd: dir });
    expect(there.code, there.stderr).toBe(0);
    expect(listing(dir)).toEqual(['a.md']);
    expect(readFileSync(join(dir, 'a.md'), 'utf8')).toContain(PLACES);
    const back = await jobs(['convert', 'a.md', '--to', 'yaml', '--remove'], { cwd: dir });
    expect(back.code, back.stderr).toBe(0);
    const after = await jobs(['publish', 'a.yaml', '--dry-run', '--json'], { cwd: dir });
    expect(Object.keys(bodies(after.stdout))).toEqual(['LOC-oslo', 'LOC-stockholm']);
    expect(bodies(after.stdout)).toStrictEqual(bodies(before.stdout));
  });
});

describe('jobs convert: Ctrl-C in a folder', () => {
  it('stops between files: each source is either still there or converted (never both gone), and every one converted is reported', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`f${String(i).padStart(3, '0')}.yaml`] = advert(`I-${i}`);
    const dir = folder(files);
    let sent = false;
    const started = Date.now();
    const run = await jobsDriven(['convert', '.', '--remove'], {
      cwd: dir,
      timeoutMs: 60_000,
      drive: () => undefined,
      feed: (child) => {
        // convert writes nothing until it ends: the signal goes once some files are converted.
        const poll = setInterval(() => {
          if (sent || Date.now() - started > 30_000) return clearInterval(poll);
          if (readdirSync(dir).some((n) => n.endsWith('.md'))) {
            sent = true;
            child.kill('SIGINT');
            clearInterval(poll);
          }
        }, 5);
      },
    });
    const names = listing(dir);
    const converted = run.stderr.split('\n').flatMap((l) => /^✔ (f\d+)\.yaml -> \1\.md$/.exec(l)?.[1] ?? []);
    for (let i = 0; i < 400; i++) {
      const base = `f${String(i).padStart(3, '0')}`;
      const md = names.includes(`${base}.md`);
      expect(md !== names.includes(`${base}.yaml`), base).toBe(true);
      expect(converted.includes(base), base).toBe(md);
    }
    expect(sent).toBe(true);
    // The signal is heard before the next file: the run stops far short of the 400.
    expect(converted.length).toBeLessThan(400);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain(`✖ ${converted.length} converted, stopped: the other files were not converted and are left as they were`);
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
