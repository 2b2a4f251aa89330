/**
 * Start-up is a feature: what a command does not need is not loaded. Node's own modules cost
 * milliseconds each (node:crypto pulls in fourteen), so the built binary is asked which it loaded.
 */
import { spawn, spawnSync, type StdioOptions } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advertYaml } from '../../bench/generate.mjs';
import { BIN, isolatedEnv, ROOT } from './helpers.js';
import { tempDir } from '../support/temp-dirs.js';

/** The Node modules a run of the built binary loaded (process.moduleLoadList at exit). */
function loadedModules(args: string[], cwd: string, stdio: StdioOptions = 'pipe'): string[] {
  const out = join(cwd, 'modules.txt');
  const preload = join(cwd, 'record-modules.cjs');
  writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`);
  const r = spawnSync(process.execPath, ['-r', preload, BIN, ...args], { cwd, env: isolatedEnv(), encoding: 'utf8', timeout: 15_000, stdio });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n');
}

/** The Node modules a plain script (an empty file) loads in the same way. */
function plainScriptModules(cwd: string): string[] {
  const out = join(cwd, 'plain-modules.txt');
  const preload = join(cwd, 'record-plain.cjs');
  const script = join(cwd, 'plain.cjs');
  writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`);
  writeFileSync(script, '');
  const r = spawnSync(process.execPath, ['-r', preload, script], { cwd, env: isolatedEnv(), encoding: 'utf8', timeout: 15_000 });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n');
}

describe('start-up loads only what the command needs', () => {
  const dir = tempDir('jobs-startup-');
  writeFileSync(join(dir, 'one.yaml'), advertYaml(1));

  it.each([[['validate', 'one.yaml']], [['--help']], [['validate', '--help']]])(
    'jobs %j loads no crypto, worker threads, V8 tuning, HTTP or ESM loader modules',
    (args) => {
      const loaded = loadedModules(args, dir);
      expect(loaded.length).toBeGreaterThan(20);
      expect(loaded.filter((m) => /^NativeModule (crypto|worker_threads|v8|http|https|internal\/crypto\/.*)$/.test(m))).toEqual([]);
      // node:module (createRequire) loads Node's ESM loader and source maps: 1 M instructions on
      // Node 20, which loads neither for a plain script (Node 24 loads its ESM loader for every one).
      const plain = new Set(plainScriptModules(dir));
      expect(loaded.filter((m) => /^NativeModule (module|internal\/modules\/esm\/loader)$/.test(m) && !plain.has(m))).toEqual([]);
    },
  );
});

describe('stdout and stderr cost nothing until a run needs more than writing to them', () => {
  // The test's stdio are pipes (sockets): process.stderr would load node:stream and node:net.
  // Pipes, and /dev/null for stdout as bench/run.mjs `startup` runs it.
  it.each([['pipe'], [['ignore', 'ignore', 'pipe']]] as [StdioOptions][])(
    "jobs validate one.yaml writes its line without loading Node's stream modules (stdio %j)",
    (stdio) => {
      const dir = tempDir('jobs-startup-');
      writeFileSync(join(dir, 'one.yaml'), advertYaml(1));
      const loaded = loadedModules(['validate', 'one.yaml'], dir, stdio);
      expect(loaded.filter((m) => /^NativeModule (stream|net|tty|internal\/fs\/sync_write_stream)$/.test(m))).toEqual([]);
    },
  );

  it('what goes to files and pipes is the same, in the same order, as through the streams', () => {
    const dir = tempDir('jobs-startup-');
    writeFileSync(join(dir, 'one.yaml'), advertYaml(1));
    writeFileSync(join(dir, 'bad.yaml'), advertYaml(2).replace(/^title: .*\n/m, 'titel: x\n'));
    const env = isolatedEnv();
    const piped = spawnSync(process.execPath, [BIN, 'validate', '.'], { cwd: dir, env, encoding: 'utf8', timeout: 15_000 });
    expect(piped.status).toBe(3);
    expect(piped.stdout).toMatch(/^✖ bad\.yaml:\d+:\d+: .*titel/m);
    expect(piped.stderr).toMatch(/1 invalid/);
    // Both into one file (2>&1): each line where it was written, stdout's findings before stderr's summary.
    const both = join(dir, 'both.txt');
    const fd = openSync(both, 'w');
    try {
      const r = spawnSync(process.execPath, [BIN, 'validate', '.'], { cwd: dir, env, stdio: ['ignore', fd, fd], timeout: 15_000 });
      expect(r.status).toBe(3);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(both, 'utf8')).toBe(piped.stdout + piped.stderr);
  });
});

describe('a proxy costs nothing where none applies', () => {
  it('jobs stats to a loopback http service, with proxy variables set, loads no TLS (the proxy agents stay unloaded)', async () => {
    const dir = tempDir('jobs-startup-');
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"views":1,"likes":0,"applications":0,"applications_unviewed":0}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const out = join(dir, 'modules.txt');
      const preload = join(dir, 'record-modules.cjs');
      writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));\n`);
      const env = isolatedEnv({
        JOBS_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        JOBS_TOKEN: 'tok_startup',
        HTTPS_PROXY: 'http://proxy.invalid:3128',
        HTTP_PROXY: 'http://proxy.invalid:3128',
        NO_PROXY: 'example.com',
      });
      const child = spawn(process.execPath, ['-r', preload, BIN, 'stats', 'A', '--json'], { cwd: dir, env, stdio: 'ignore' });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      const loaded = readFileSync(out, 'utf8').split('\n');
      expect(loaded).toContain('NativeModule http');
      expect(loaded.filter((m) => /^NativeModule (https|tls|_tls_wrap|_tls_common)$/.test(m))).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 20_000);
});

describe('the bundle every start reads is ASCII', () => {
  // bin/jobs.js reads dist/cli.cjs as latin1 (a copy, where utf8 decodes, and one non-ASCII
  // character doubles the string): the build escapes what esbuild leaves in regular expressions.
  it.each(['dist/cli.cjs', 'dist/validate-worker.cjs'])('%s has no byte above 0x7f', (file) => {
    const bytes = readFileSync(join(ROOT, file));
    expect(bytes.length).toBeGreaterThan(100_000);
    expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
  });

  it('a regular expression of non-ASCII letters still matches them: a place in Gießen or Tromsø gets its Latin spelling', () => {
    const dir = tempDir('jobs-startup-');
    writeFileSync(
      join(dir, 'places.yaml'),
      advertYaml(1)
        .replace(/^reference: .*$/m, 'reference: ACME-1')
        .replace(/^location:\n( {2}.*\n)+/m, 'locations:\n  - country: DE\n    city: Gießen\n  - country: NO\n    city: Tromsø\n'),
    );
    const r = spawnSync(process.execPath, [BIN, 'validate', 'places.yaml', '--json'], { cwd: dir, env: isolatedEnv(), encoding: 'utf8', timeout: 15_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('"ACME-1-giessen"');
    expect(r.stdout).toContain('"ACME-1-tromso"');
  });
});

describe('a start builds only what its run reads', () => {
  /** How many JSON texts over 8 KB a run parsed (the rules and wording data) and how many getters it defined (module namespaces). */
  function work(args: string[], cwd: string): { bigParses: number; getters: number; status: number | null; stdout: string } {
    const out = join(cwd, 'work.json');
    const preload = join(cwd, 'count-work.cjs');
    writeFileSync(
      preload,
      `const parse = JSON.parse, define = Object.defineProperty; let bigParses = 0, getters = 0;
JSON.parse = function (text, ...rest) { if (typeof text === 'string' && text.length > 8192) bigParses++; return parse.call(this, text, ...rest); };
Object.defineProperty = function (target, key, d) { if (d && typeof d.get === 'function') getters++; return define(target, key, d); };
process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ bigParses, getters })));\n`,
    );
    const r = spawnSync(process.execPath, ['-r', preload, BIN, ...args], { cwd, env: isolatedEnv(), encoding: 'utf8', timeout: 15_000 });
    return { ...JSON.parse(readFileSync(out, 'utf8')), status: r.status, stdout: r.stdout };
  }

  it('an advert in a country without rules: no rules or wording data parsed, no module namespace filled', () => {
    const dir = tempDir('jobs-startup-');
    writeFileSync(join(dir, 'one.yaml'), advertYaml(1));
    const run = work(['validate', 'one.yaml'], dir);
    expect(run.status).toBe(0);
    // Before: both data sets parsed and some 300 getters defined at every start.
    expect(run.bigParses).toBe(0);
    expect(run.getters).toBeLessThan(60);
  });

  it('an advert in Colorado parses the rules data, once, and breaks its rules', () => {
    const dir = tempDir('jobs-startup-');
    writeFileSync(join(dir, 'co.yaml'), advertYaml(1).replace(/^location:\n( {2}.*\n)+/m, 'location:\n  country: US\n  state: CO\n  city: Denver\n'));
    const run = work(['validate', 'co.yaml'], dir);
    expect(run.status).toBe(3);
    expect(run.bigParses).toBe(1);
    expect(run.stdout).toContain('[place_rule:US_CO_pay_range:');
  });
});
