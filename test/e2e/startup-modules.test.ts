/**
 * Start-up is a feature: what a command does not need is not loaded. Node's own modules cost
 * milliseconds each (node:crypto pulls in fourteen), so the built binary is asked which it loaded.
 * (net is always there: the test's stdio pipes are sockets.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advertYaml } from '../../bench/generate.mjs';
import { BIN, isolatedEnv } from './helpers.js';

/** The Node modules a run of the built binary loaded (process.moduleLoadList at exit). */
function loadedModules(args: string[], cwd: string): string[] {
  const out = join(cwd, 'modules.txt');
  const preload = join(cwd, 'record-modules.cjs');
  writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`);
  const r = spawnSync(process.execPath, ['-r', preload, BIN, ...args], { cwd, env: isolatedEnv(), encoding: 'utf8', timeout: 15_000 });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n');
}

describe('start-up loads only what the command needs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jobs-startup-'));
  writeFileSync(join(dir, 'one.yaml'), advertYaml(1));

  it.each([[['validate', 'one.yaml']], [['--help']], [['validate', '--help']]])('jobs %j loads no crypto, worker threads, V8 tuning or HTTP modules', (args) => {
    const loaded = loadedModules(args, dir);
    expect(loaded.length).toBeGreaterThan(20);
    expect(loaded.filter((m) => /^NativeModule (crypto|worker_threads|v8|http|https|internal\/crypto\/.*)$/.test(m))).toEqual([]);
  });
});
