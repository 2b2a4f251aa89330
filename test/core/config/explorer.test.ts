/**
 * The config files are searched and loaded in cosmiconfig's order (src/core/config/explorer.ts); what
 * cosmiconfig would do of its own with a file's keys or a planted file does not happen.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { explorer, Loaded, type Loaders } from '../../../src/core/config/explorer.js';
import { loadConfigFiles, locateConfigFiles } from '../../../src/core/config/load.js';
import { tempDir } from '../../support/temp-dirs.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A HOME with a project two folders down; the search stops at HOME. */
function home(files: Record<string, string>): { project: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-explorer-'));
  made.push(dir);
  const project = join(dir, 'work', 'project');
  mkdirSync(project, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { project, env: { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config') } };
}

describe('the config search', () => {
  it('finds the nearest project config up the tree, and the user config beside it', async () => {
    const { project, env } = home({ 'work/.jobsrc.yaml': 'concurrency: 3\n', '.jobsrc.json': '{"retries": 1}' });
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'jobs'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'config.yaml'), 'retries: 4\n');
    const found = await loadConfigFiles({ cwd: project, env });
    expect(found.layers.map((layer) => [layer.kind, layer.path, layer.data])).toEqual([
      ['project', join(env.HOME!, 'work', '.jobsrc.yaml'), { concurrency: 3 }],
      ['user', join(env.XDG_CONFIG_HOME!, 'jobs', 'config.yaml'), { retries: 4 }],
    ]);
  });

  it('passes over a file of whitespace for the next name in the same folder, and reads nothing above HOME', async () => {
    const { project, env } = home({ 'work/.jobsrc.json': '  \n\t\n', 'work/.jobsrc.yaml': 'concurrency: 4\n' });
    // HOME one folder down from where it was, under a config the search must not reach.
    writeFileSync(join(env.HOME!, '.jobsrc.yaml'), 'concurrency: 9\n');
    const below = { ...env, HOME: join(env.HOME!, 'work') };
    const found = await loadConfigFiles({ cwd: project, env: below });
    expect(found.layers.map((layer) => [layer.path, layer.data])).toEqual([[join(env.HOME!, 'work', '.jobsrc.yaml'), { concurrency: 4 }]]);
    rmSync(join(env.HOME!, 'work', '.jobsrc.yaml'));
    expect((await loadConfigFiles({ cwd: project, env: below })).layers).toEqual([]);
    expect((await locateConfigFiles({ cwd: project, env: below })).project).toBeUndefined();
    // With HOME where it was, the same search goes one folder further and finds it.
    expect((await locateConfigFiles({ cwd: project, env })).project).toBe(join(env.HOME!, '.jobsrc.yaml'));
  });

  it('$import in a config is a key like any other: refused by the config schema, the file it names is not read', async () => {
    const { project, env } = home({ 'secret.yaml': 'base_url: https://elsewhere.example\n' });
    writeFileSync(join(project, '.jobsrc.yaml'), `$import: ${join(env.HOME!, 'secret.yaml')}\nconcurrency: 2\n`);
    await expect(loadConfigFiles({ cwd: project, env })).rejects.toThrow(/^\.jobsrc\.yaml: \$import: /);
  });

  it.skipIf(process.platform === 'win32')('a FIFO planted as .jobsrc.yaml is passed over at once (reading it would wait for a writer)', async () => {
    const { project, env } = home({ 'work/.jobsrc.yaml': 'concurrency: 3\n' });
    expect(spawnSync('mkfifo', [join(project, '.jobsrc.yaml')]).status).toBe(0);
    const t = performance.now();
    const found = await loadConfigFiles({ cwd: project, env });
    expect(found.layers.map((layer) => layer.path)).toEqual([join(env.HOME!, 'work', '.jobsrc.yaml')]);
    expect((await locateConfigFiles({ cwd: project, env })).project).toBe(join(env.HOME!, 'work', '.jobsrc.yaml'));
    expect(performance.now() - t).toBeLessThan(2000);
  });

  it.skipIf(process.platform === 'win32')(
    'in a large folder, looked up name by name rather than listed, finds the same config and passes over the same planted entries',
    async () => {
      const { project, env } = home({ 'work/.jobsrc.yml': 'concurrency: 5\n' });
      // Large enough that explorer.ts looks up each name (a listing of /tmp with 14,000 entries took 15 ms).
      for (const dir of [project, join(env.HOME!, 'work')])
        for (let i = 0; i < 700; i++) writeFileSync(join(dir, `an-entry-with-a-long-name-${String(i).padStart(4, '0')}.txt`), '');
      expect(statSync(project).size).toBeGreaterThan(16_384);
      expect(spawnSync('mkfifo', [join(project, '.jobsrc.yaml')]).status).toBe(0);
      mkdirSync(join(project, '.jobsrc.json'));
      const found = await loadConfigFiles({ cwd: project, env });
      expect(found.layers.map((layer) => [layer.path, layer.data])).toEqual([[join(env.HOME!, 'work', '.jobsrc.yml'), { concurrency: 5 }]]);
      expect((await locateConfigFiles({ cwd: project, env })).project).toBe(join(env.HOME!, 'work', '.jobsrc.yml'));
    },
  );
});

const yamlish: Loaders = { '.yaml': (_file, content) => new Loaded(content.trim()) };

describe('config explorer: a loader error is reported, naming the file', () => {
  it('does not pass over a config whose loader fails with ENOENT (a config.cjs reading a missing file)', async () => {
    const dir = tempDir('jobs-explorer-');
    writeFileSync(join(dir, 'config.cjs'), 'module.exports = {}');
    writeFileSync(join(dir, 'config.yaml'), 'later');
    const failing: Loaders = {
      ...yamlish,
      '.cjs': () => {
        throw Object.assign(new Error("ENOENT: no such file or directory, open '/nonexist'"), { code: 'ENOENT' });
      },
    };
    const search = explorer(['config.cjs', 'config.yaml'], failing).search(dir);
    await expect(search).rejects.toMatchObject({ code: 'ENOENT', filepath: join(dir, 'config.cjs') });
  });

  it('still passes over a place that cannot be read (a folder named like one)', async () => {
    const dir = tempDir('jobs-explorer-');
    mkdirSync(join(dir, 'a.yaml'));
    writeFileSync(join(dir, 'b.yaml'), 'found');
    const result = await explorer(['a.yaml', 'b.yaml'], yamlish).search(dir);
    expect(result?.filepath).toBe(join(dir, 'b.yaml'));
  });

  it('names the file when a loader throws a value that is not an object', async () => {
    const dir = tempDir('jobs-explorer-');
    writeFileSync(join(dir, 'c.cjs'), 'throw "boom"');
    const throwing: Loaders = {
      '.cjs': () => {
        throw 'boom';
      },
    };
    await expect(explorer([], throwing).load(join(dir, 'c.cjs'))).rejects.toMatchObject({ message: 'boom', filepath: join(dir, 'c.cjs') });
  });

  it('names the file, and the names it can read, for an extension without a loader', async () => {
    const dir = tempDir('jobs-explorer-');
    writeFileSync(join(dir, 'c.toml'), 'a = 1');
    await expect(explorer([], yamlish).load(join(dir, 'c.toml'))).rejects.toMatchObject({
      message: 'no loader for extension ".toml": name it with .yaml',
      filepath: join(dir, 'c.toml'),
    });
  });
});
