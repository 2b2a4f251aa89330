/**
 * The package as users get it: `npm pack`, installed globally into a temporary prefix (offline: the
 * dependencies are in npm's cache after `npm ci`), gives a working `jobs`; the tarball holds only
 * what runs; the schemas, type declarations and man pages ship; the programmatic example of docs/api.md runs and
 * type-checks against the installed package; and the library works with a YAML config present.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../support/run-process.js';
import { cleanEnv, exec, LIMIT_MS, packAndInstall, ROOT } from './packed.js';
import { isolatedEnv } from '../e2e/helpers.js';
import { liveSandbox } from '../e2e/sandbox.js';

const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

let work: string;
let installed: string;
let bin: string;
let packedFiles: string[];
let prefix: string;

beforeAll(async () => {
  ({ work, installed, bin, packedFiles, prefix } = await packAndInstall(PKG.name));
}, LIMIT_MS);

/** A project folder that depends on the installed package (as `npm install jobs-cli` would leave it). */
function project(): string {
  const dir = mkdtempSync(join(work, 'project-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(installed, join(dir, 'node_modules', PKG.name), 'dir');
  return dir;
}

describe('npm pack, installed globally into a temporary prefix', () => {
  it('packs only what runs: bin, dist, schemas, README, LICENSE, CHANGELOG', () => {
    const top = new Set(packedFiles.map((p) => p.split('/')[0]));
    expect([...top].sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'bin', 'dist', 'package.json', 'schemas']);
    expect(packedFiles).toEqual(
      expect.arrayContaining(['bin/jobs.js', 'dist/cli.cjs', 'dist/index.js', 'dist/index.d.ts', 'schemas/advert.schema.json', 'schemas/config.schema.json']),
    );
  });

  it('installs the man pages into the prefix (man reads them: pack.real.test.ts)', () => {
    expect(packedFiles).toEqual(expect.arrayContaining(['dist/man/man1/jobs.1', 'dist/man/man1/jobs-sync.1']));
    for (const page of ['jobs.1', 'jobs-sync.1', 'jobs-cli.1']) expect(existsSync(join(prefix, 'share', 'man', 'man1', page)), page).toBe(true);
  });

  it('gives a working jobs: --version is the package version, listed in the CHANGELOG', async () => {
    const r = await exec(bin, ['--version']);
    expect(r).toEqual({ code: 0, stdout: `${PKG.version}\n`, stderr: '' });
    expect(PKG.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toMatch(
      new RegExp(`^## \\[?${PKG.version.replace(/\./g, '\\.')}\\]? - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    );
  });

  it('validates the examples (exit 0) and reports an invalid advert (exit 3)', async () => {
    const env = cleanEnv(isolatedEnv());
    env.PATH = cleanEnv().PATH!;
    const ok = await exec(bin, ['validate', join(ROOT, 'examples/adverts')], { env });
    expect(ok.stderr).toBe('✔ 3 adverts in 2 files: all valid\n');
    expect(ok.code).toBe(0);
    const bad = await exec(bin, ['validate', join(ROOT, 'test/fixtures/invalid')], { env });
    expect(bad.code).toBe(3);
    expect(bad.stdout).toMatch(/mistakes\.yaml:\d+:\d+: /);
  });

  it('ships the schemas: jobs schema prints them and jobs init points at them inside node_modules', async () => {
    const env = { ...isolatedEnv(), PATH: cleanEnv().PATH! };
    const path = await exec(bin, ['schema', 'update', '--path'], { env });
    expect(path.stdout).toBe(`${join(installed, 'schemas', 'advert-update.schema.json')}\n`);
    const printed = await exec(bin, ['schema', 'config'], { env });
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(readFileSync(join(ROOT, 'schemas/config.schema.json'), 'utf8')));

    const dir = project();
    const init = await exec(bin, ['init', 'adverts/new.yaml'], { cwd: dir, env });
    expect(init.code, init.stderr).toBe(0);
    const written = readFileSync(join(dir, 'adverts/new.yaml'), 'utf8');
    const reference = /^# yaml-language-server: \$schema=(.+)$/m.exec(written)?.[1];
    expect(reference).toBe('../node_modules/jobs-cli/schemas/advert.schema.json');
    expect(existsSync(join(dir, 'adverts', reference!))).toBe(true);
    const check = await exec(bin, ['validate', 'adverts/'], { cwd: dir, env });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it(
    'runs the programmatic example of docs/api.md against a sandbox, and it type-checks',
    async () => {
      const page = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
      const script = /^# Programmatic API$[\s\S]*?^```js\n([\s\S]*?)^```$/m.exec(page)?.[1];
      expect(script, 'a ```js block in docs/api.md').toBeDefined();
      expect(
        script!
          .trim()
          .split('\n')
          .filter((l) => l.trim() !== '').length,
      ).toBeLessThanOrEqual(11);

      const dir = project();
      cpSync(join(ROOT, 'examples/adverts'), join(dir, 'adverts'), { recursive: true });
      writeFileSync(join(dir, 'example.mjs'), script!);
      const live = await liveSandbox();
      const env = { ...live.env, PATH: cleanEnv().PATH! };
      const r = await exec(process.execPath, ['example.mjs'], { cwd: dir, env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^created ACME-0042 \{ views: \d+, likes: \d+, applications: \d+, applications_unviewed: \d+ \}$/m);
      expect(r.stdout).toMatch(/^\{ created: 3, unchanged: 0, orphan: 0, not_started: 0 \}$/m);
      expect(live.count(/^POST \/jobs 201/)).toBe(3);
      expect(existsSync(join(dir, 'adverts/.jobs-state'))).toBe(true);

      // An invalid advert: the rendered error tree, exit 3, nothing sent.
      writeFileSync(join(dir, 'adverts/broken.yaml'), 'reference: X-1\ntitle: ""\n');
      const bad = await exec(process.execPath, ['example.mjs'], { cwd: dir, env });
      expect(bad.code).toBe(3);
      expect(bad.stderr).toMatch(/^adverts\/broken\.yaml\n {2}organization_name: is missing \(required\) \[missing\]\n/m);
      expect(bad.stderr).toMatch(/^ {2}title: must not be blank \[blank\]$/m);
      expect(live.count(/^POST \/jobs/)).toBe(3);

      // Type-check the example as a TypeScript user would, against the installed declarations.
      const tsc = await typeCheck(dir, ['example.mjs']);
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.code).toBe(0);
    },
    LIMIT_MS,
  );

  it(
    'the library reads a YAML config: loadAdverts, validateAdvert and syncFolder from an .mjs file; a .mts file type-checks',
    async () => {
      const dir = project();
      mkdirSync(join(dir, 'adverts'));
      // Defaults and a named constant from the project config: the synced advert shows it was read.
      writeFileSync(join(dir, '.jobsrc.yaml'), 'concurrency: 2\ndefaults:\n  question: Why robots?\nconstants:\n  contract:\n    permanent: 1\n');
      const advert = readFileSync(join(ROOT, 'examples/adverts/backend-engineer.yaml'), 'utf8')
        .replace(/^question: .*\n/m, '')
        .replace(/^contract_id: 1$/m, 'contract_id: permanent');
      writeFileSync(join(dir, 'adverts/one.yaml'), advert);
      writeFileSync(
        join(dir, 'use.mjs'),
        [
          "import { loadAdverts, validateAdvert, syncFolder } from 'jobs-cli';",
          "const { adverts, problems } = await loadAdverts(['adverts/']);",
          "console.log('loaded', adverts.length, problems.length);",
          "console.log('plain', Object.keys(validateAdvert({ reference: 'X-1' })).length > 0, Object.keys(validateAdvert(adverts[0].value)).join(','));",
          "const plan = await syncFolder({ dir: 'adverts/', dryRun: true });",
          "console.log('plan', plan.exitCode, JSON.stringify(plan.plan.map((p) => [p.action, p.reference])));",
          "const done = await syncFolder({ dir: 'adverts/' });",
          "console.log('sync', done.exitCode, JSON.stringify(done.results.map((r) => [r.status, r.reference])));",
        ].join('\n'),
      );
      const live = await liveSandbox();
      const env = { ...live.env, PATH: cleanEnv().PATH! };
      const r = await exec(process.execPath, ['use.mjs'], { cwd: dir, env });
      expect(r.stderr).toBe('');
      // The raw file still names the constant, so validateAdvert (no config) flags contract_id only.
      expect(r.stdout).toBe(['loaded 1 0', 'plain true contract_id', 'plan 0 [["create","ACME-0042"]]', 'sync 0 [["created","ACME-0042"]]', ''].join('\n'));
      expect(r.code).toBe(0);
      const stored = live.sandbox.state().adverts.map((a) => a.advert);
      expect(stored).toEqual([expect.objectContaining({ reference: 'ACME-0042', question: 'Why robots?', contract_id: 1 })]);

      writeFileSync(
        join(dir, 'use.mts'),
        [
          "import { loadAdverts, validateAdvert, syncFolder, type ErrorTree, type LoadedAdverts, type SyncFolderResult } from 'jobs-cli';",
          "const loaded: LoadedAdverts = await loadAdverts(['adverts/'], { cwd: process.cwd() });",
          "const tree: ErrorTree = validateAdvert(loaded.adverts[0]?.value ?? {}, 'create');",
          "const result: SyncFolderResult = await syncFolder({ dir: 'adverts/', dryRun: true, prune: false });",
          'const code: number = result.exitCode;',
          '// @ts-expect-error dryRun is a boolean',
          "await syncFolder({ dir: 'adverts/', dryRun: 'yes' });",
          'export { tree, code };',
        ].join('\n'),
      );
      const tsc = await typeCheck(dir, ['use.mts']);
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.code).toBe(0);
    },
    LIMIT_MS,
  );
});

/** tsc as a TypeScript user runs it, against the installed declarations. */
function typeCheck(dir: string, files: string[]): Promise<Run> {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        target: 'es2022',
        strict: true,
        allowJs: true,
        checkJs: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      files,
    }),
  );
  return exec(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir, timeoutMs: 60_000 });
}
