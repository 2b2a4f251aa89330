/**
 * The --json output contracts: every command's real output (the built binary against a sandbox on
 * 127.0.0.1) holds to its JSON Schema in schemas/output/, every NDJSON line to its line type's, each
 * carries format_version 1, and every command that gives JSON has a schema. The shipped input
 * schemas have $ids, and their examples hold to them.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, jobs, jobsDriven, ROOT } from '../e2e/helpers.js';
import { liveSandbox } from '../e2e/sandbox.js';
import { advertYaml } from '../commands/harness.js';
import { JSON_COMMANDS, OUTPUT, OUTPUT_SCHEMAS, schemasOf } from './output-schemas.js';
import { tempDir } from '../support/temp-dirs.js';

const ajv = new Ajv2020.default({ allErrors: true, strict: false });
addFormats.default(ajv);
for (const file of readdirSync(OUTPUT)) ajv.addSchema(JSON.parse(readFileSync(join(OUTPUT, file), 'utf8')) as object);

/** What each schema was checked against, so a test can say that every one of them was. */
const checked = new Map<string, number>();

function holds(schema: string, text: string): void {
  const validate = ajv.getSchema(`urn:jobs-cli:schemas:output:${schema}`);
  expect(validate, schema).toBeDefined();
  const doc = JSON.parse(text) as { format_version?: unknown };
  expect(doc.format_version, `${schema}: ${text}`).toBe(1);
  const ok = validate!(doc);
  expect(ok, `${schema}: ${JSON.stringify(validate!.errors)}\n${text}`).toBe(true);
  checked.set(schema, (checked.get(schema) ?? 0) + 1);
}

/** NDJSON: each line to the schema its `type` (or shape) names. */
function linesHold(text: string, schemaOf: (line: Record<string, unknown>) => string): void {
  const lines = text.trim().split('\n');
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) holds(schemaOf(JSON.parse(line) as Record<string, unknown>), line);
}

const syncLine = (l: Record<string, unknown>) =>
  ({ plan: 'sync-plan', plan_summary: 'sync-plan-summary', result: 'sync-result', summary: 'sync-summary' })[String(l.type)]!;
const eventsLine = (l: Record<string, unknown>) => ('summary' in l ? 'events-summary' : 'valid' in l ? 'events-invalid' : 'events-result');

let dir: string;

beforeAll(() => {
  dir = tempDir('jobs-contracts-');
  cpSync(join(ROOT, 'examples/adverts'), join(dir, 'adverts'), { recursive: true });
  writeFileSync(join(dir, 'bad.yaml'), advertYaml('BAD-1').replace('seniority: 0', 'seniority: -1'));
});

describe('every --json output holds to its schema in schemas/output/', () => {
  it('validate, publish, create, update, delete, stats, report, event, events and sync against a sandbox', async () => {
    const s = await liveSandbox();
    const env = { ...s.env };
    const run = async (args: string[], input?: string) =>
      (await jobs(['--json', ...args], { cwd: dir, env, ...(input !== undefined ? { input } : {}) })).stdout;

    holds('validate', await run(['validate', 'adverts/']));
    holds('validate', await run(['validate', 'bad.yaml']));
    holds('publish', await run(['publish', 'adverts/', '--dry-run']));
    holds('publish', await run(['publish', 'bad.yaml']));
    linesHold(await run(['sync', 'adverts/', '--dry-run']), syncLine);
    linesHold(await run(['sync', 'adverts/']), syncLine);
    holds('publish', await run(['publish', 'adverts/']));
    holds('create', await run(['create', '-'], advertYaml('NEW-1')));
    holds('update', await run(['update', 'ACME-0042', '--set', 'seniority=4']));
    holds('update', await run(['update', 'ACME-0042', '--set', 'seniority=5', '--dry-run']));
    holds('stats', await run(['stats', 'ACME-0042', 'ACME-0043']));
    holds('report', await run(['report', '--file', join(dir, 'report.html')]));
    // An advert for several places: plan lines name their group, stats a group's totals, the report its groups.
    mkdirSync(join(dir, 'places'));
    writeFileSync(
      join(dir, 'places/eng.yaml'),
      advertYaml('PL-1').replace(
        'location:\n  country: NO\n  city: Oslo\n',
        'locations:\n  - country: NO\n    city: Oslo\n  - country: NO\n    city: Bergen\n',
      ),
    );
    linesHold(await run(['sync', 'places/', '--dry-run']), syncLine);
    linesHold(await run(['sync', 'places/']), syncLine);
    const group = await run(['stats', 'PL-1', '--state', 'places/.jobs-state']);
    expect(group).toContain('"groups"');
    holds('stats', group);
    holds('report', await run(['report', '--file', join(dir, 'report.html')]));

    const app = await fetch(`${s.baseUrl}/_sandbox/applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"reference":"ACME-0042"}',
    });
    const { id } = (await app.json()) as { id: string };
    holds('event', await run(['event', id, 'recruiter_view']));
    writeFileSync(
      join(dir, 'events.ndjson'),
      `${JSON.stringify({ application_id: id, kind: 'recruiter_like' })}\n{"application_id":"nobody","kind":"recruiter_view"}\n`,
    );
    linesHold(await run(['events', 'events.ndjson']), eventsLine);
    linesHold(await run(['events', 'events.ndjson', '--dry-run']), eventsLine);
    writeFileSync(join(dir, 'bad-events.ndjson'), '{"application_id":"x","kind":"recruiter_wave"}\n');
    linesHold(await run(['events', 'bad-events.ndjson']), eventsLine);
    holds('delete', await run(['delete', 'NEW-1', '--yes']));
    holds('doctor', await run(['doctor']));
  }, 120_000);

  it('init, config, login, logout, version, sandbox and errors', async () => {
    const env = isolatedEnv();
    const run = async (args: string[], input?: string) =>
      (await jobs(['--json', ...args], { cwd: dir, env, ...(input !== undefined ? { input } : {}) })).stdout;
    holds('init', await run(['init', 'new-advert.yaml']));
    holds('init', await run(['init', 'new-advert.md']));
    // Before convert, which puts a Markdown twin beside each YAML advert (the same references).
    holds('export', await run(['export', 'jsonld', 'adverts/']));
    holds('export', await run(['export', 'jsonld', 'adverts/', '--out', 'jsonld']));
    holds('export', await run(['export', 'site', 'adverts/', '--out', 'site', '--site-url', 'https://example.com/careers/']));
    holds('preview', await run(['preview', 'new-advert.yaml', '--open']));
    // Invalid input stops an export as it stops a sync: the findings, and the error.
    holds('error', await run(['export', 'jsonld', 'bad.yaml']));
    holds('convert', await run(['convert', 'new-advert.yaml', 'adverts/']));
    holds('config', await run(['config', 'set', 'retries', '3']));
    holds('config', await run(['config', 'get', 'retries']));
    holds('config', await run(['config', 'list']));
    holds('config', await run(['config', 'path']));
    holds('config', await run(['config', 'unset', 'retries']));
    holds('login', await run(['login', '--with-token'], 'tok-123456\n'));
    holds('logout', await run(['logout']));
    holds('version', await run(['version']));
    holds('rules', (await jobs(['--json', 'rules'], { cwd: dir, env: { ...env, JOBS_TEST_RULES: 'places' } })).stdout);
    holds('sandbox', await sandboxStart(env));
    holds('sandbox-fast-forward', await run(['sandbox', '--fast-forward', '1d']));
    // Errors: a usage error, a configuration error, a refused format.
    holds('error', await run(['validate']));
    holds('error', await run(['stats', 'X-1'], ''));
    holds('error', await run(['completion', 'bash']));
  }, 120_000);

  it('checked every schema, and every command that gives JSON has one, named after it', () => {
    for (const schema of OUTPUT_SCHEMAS.filter((f) => f !== 'common'))
      expect(checked.get(schema) ?? 0, `no output was checked against ${schema}`).toBeGreaterThan(0);
    for (const name of JSON_COMMANDS) {
      expect(schemasOf(name), `${name} gives --json but has no schema: write schemas/output/${name}.schema.json (or ${name}-<part>.schema.json)`).not.toEqual(
        [],
      );
    }
    // Every schema but the shared ones is a command's.
    for (const schema of OUTPUT_SCHEMAS.filter((f) => f !== 'common' && f !== 'error')) {
      expect(
        JSON_COMMANDS.some((name) => schemasOf(name).includes(schema)),
        `${schema}.schema.json is named after no command that gives --json`,
      ).toBe(true);
    }
  });
});

/** `jobs sandbox --json` prints where it listens, then serves until stopped. */
async function sandboxStart(env: Record<string, string>): Promise<string> {
  let line = '';
  await jobsDriven(['--json', 'sandbox', '--port', '0'], {
    cwd: dir,
    env,
    drive: (child, stdout) => {
      if (!line && stdout.includes('\n')) {
        line = stdout.split('\n')[0]!;
        child.kill('SIGTERM');
      }
    },
  });
  return line;
}

describe('the input schemas', () => {
  it('have $ids, and their examples hold to them', () => {
    for (const file of ['advert', 'advert-update', 'event', 'config']) {
      const schema = JSON.parse(readFileSync(join(ROOT, `schemas/${file}.schema.json`), 'utf8')) as { $id?: string; examples?: unknown[] };
      expect(schema.$id).toBe(`urn:jobs-cli:schemas:${file}`);
      expect(schema.examples?.length, file).toBeGreaterThan(0);
      const validate = new Ajv2020.default({ strict: false, allErrors: true });
      addFormats.default(validate);
      const check = validate.compile(schema);
      for (const example of schema.examples!) expect(check(example), `${file}: ${JSON.stringify(check.errors)}`).toBe(true);
    }
  });
});
