/**
 * YAML the user writes outside advert files (config files, `config set` values, `--set` lists,
 * `--data-file`) with a tag the yaml package does not know: refused with the place, never read as
 * something else behind a Node warning on stderr (which `parse` prints and then ignores).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { runJobs, serviceEnv, tempFolder } from '../../commands/harness.js';

beforeAll(() => nock.disableNetConnect());
let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});
afterEach(() => {
  // No tag may reach Node's warning channel: that text would bypass the tool's own messages.
  expect(warn).not.toHaveBeenCalled();
  warn.mockRestore();
  nock.cleanAll();
});

describe('unknown YAML tags', () => {
  it('in a project config: exit 2 naming the file, line and column (the value was read as "3" before)', async () => {
    const dir = tempFolder({ '.jobsrc.yaml': 'retries: 2\ntimeout: !foo 3\n' });
    const r = await runJobs(['config', 'list'], { cwd: dir });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'jobs: .jobsrc.yaml: invalid YAML: Unresolved tag: !foo at line 2, column 10\n' });
  });

  it('config set refuses to edit a file holding one, and leaves it as it was', async () => {
    const text = 'retries: !foo 2\n';
    const dir = tempFolder({ '.jobsrc.yaml': text });
    const r = await runJobs(['config', 'set', '--project', 'concurrency', '3'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.jobsrc.yaml: invalid YAML: Unresolved tag: !foo at line 1, column 10');
    expect(readFileSync(join(dir, '.jobsrc.yaml'), 'utf8')).toBe(text);
  });

  it('config set of a free-form default keeps a tagged value as its text', async () => {
    const dir = tempFolder({});
    const r = await runJobs(['config', 'set', '--project', 'defaults.title', '!foo Engineer'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, '.jobsrc.yaml'), 'utf8')).toBe('defaults:\n  title: "!foo Engineer"\n');
  });

  it('update --set with a tagged list item: exit 2, nothing sent', async () => {
    const r = await runJobs(['update', 'ACME-1', '--set', 'skills=[!foo Go, Rust]'], { env: serviceEnv });
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'jobs: --set skills=[!foo Go, Rust]: write a list as [a, b, c]\n' });
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('event --data-file with a tagged value: exit 3 with its line, nothing sent (it sent "3" before)', async () => {
    const dir = tempFolder({ 'd.yaml': 'reason: filled\nstep: !foo 3\n' });
    const r = await runJobs(['event', 'a1', 'recruiter_like', '--data-file', 'd.yaml'], { cwd: dir, env: serviceEnv });
    expect(r).toEqual({ code: 3, stdout: '', stderr: 'jobs: --data-file d.yaml: Unresolved tag: !foo at line 2, column 7\n' });
  });
});
