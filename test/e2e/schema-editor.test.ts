/**
 * The editor agrees with the CLI. The real yaml-language-server (the server VS Code's YAML extension
 * runs), driven over its stdio language-server protocol, checks a set of adverts in a project whose
 * config sets defaults and constants, against the schema `jobs schema create --resolved --write`
 * writes (where `jobs init` points new adverts). Where `jobs validate` accepts an advert the editor
 * shows nothing; where it refuses one for a reason JSON Schema can express (a missing field, a type,
 * a constant's name, an unknown field, the US/CA/MX state rule, a format), the editor marks the same
 * line. The shipped schema, which knows nothing of the config, marks the valid advert red: the bug.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, isolatedEnv, ROOT } from './helpers.js';
import { LspClient, type Diagnostic } from '../support/lsp.js';
import { tempDir } from '../support/temp-dirs.js';

const SERVER = join(ROOT, 'node_modules/yaml-language-server/bin/yaml-language-server');
const CONFIG = `defaults:
  organization_name: ACME
  company_description: Robots.
  location:
    country: US
constants:
  contract:
    permanent: 1
    temporary: 2
`;
const BODY = `reference: ED-1
title: Engineer
job_description: Build robots.
contract_id: permanent
salary_id: 2
salary_text: '50000'
industry_id: 3
department_id: 4
seniority: 0
education: 0
location:
  city: Austin
  state: TX
recruiter:
  email: hr@acme.example
`;
const RESOLVED = '# yaml-language-server: $schema=../.jobs/advert.schema.json\n';
const SHIPPED = `# yaml-language-server: $schema=${join(ROOT, 'schemas/advert.schema.json')}\n`;

/** Each advert's text (under the modeline) and what is wrong with it. */
const ADVERTS: Record<string, string> = {
  'valid.yaml': BODY,
  'missing-field.yaml': BODY.replace('title: Engineer\n', ''),
  'wrong-type.yaml': BODY.replace('seniority: 0', 'seniority: high'),
  'unknown-constant.yaml': BODY.replace('contract_id: permanent', 'contract_id: permanant'),
  'id-as-number.yaml': BODY.replace('contract_id: permanent', 'contract_id: 7'),
  'unknown-field.yaml': BODY.replace('education: 0\n', 'education: 0\ntitel: Engineer\n'),
  'state-rule.yaml': BODY.replace('  state: TX\n', ''),
  'bad-country.yaml': BODY.replace('  city: Austin\n', '  country: XX\n  city: Austin\n'),
  'bad-email.yaml': BODY.replace('salary_id: 2\n', 'salary_id: 2\napply_email: not-an-address\n'),
  // The tool's own jobs: block (never sent): known to the schema, and closed to other keys.
  'dated.yaml': `${BODY}jobs:\n  opens: 2026-12-01\n  closes: 2099-12-31\n`,
  'dated-typo.yaml': `${BODY}jobs:\n  opens: 2026-12-01\n  colses: 2099-12-31\n`,
  // Several places (`locations:`): the default country applies to each.
  'places.yaml': BODY.replace(
    'location:\n  city: Austin\n  state: TX\n',
    'locations:\n  - city: Austin\n    state: TX\n  - city: Boston\n    state: MA\n    reference: ED-BOS\n',
  ),
  'places-state-rule.yaml': BODY.replace('location:\n  city: Austin\n  state: TX\n', 'locations:\n  - city: Austin\n    state: TX\n  - city: Boston\n'),
};

let dir: string;
let client: LspClient;
const env = isolatedEnv();

async function cliLines(file: string): Promise<{ valid: boolean; lines: number[] }> {
  const r = await jobs(['validate', '--json', file], { cwd: dir, env });
  const doc = JSON.parse(r.stdout) as { valid: boolean; findings: { line: number }[] };
  return { valid: doc.valid, lines: [...new Set(doc.findings.map((f) => f.line))].sort((a, b) => a - b) };
}

async function editorDiagnostics(file: string): Promise<Diagnostic[]> {
  const uri = pathToFileURL(join(dir, file)).href;
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: readFileSync(join(dir, file), 'utf8') } });
  return client.diagnosticsFor(uri);
}

const lineOf = (d: Diagnostic) => d.range.start.line + 1;

beforeAll(async () => {
  dir = tempDir('jobs-editor-');
  writeFileSync(join(dir, '.jobsrc.yaml'), CONFIG);
  mkdirSync(join(dir, 'adverts'));
  mkdirSync(join(dir, 'shipped'));
  for (const [name, text] of Object.entries(ADVERTS)) writeFileSync(join(dir, 'adverts', name), `${RESOLVED}${text}`);
  writeFileSync(join(dir, 'shipped/valid.yaml'), `${SHIPPED}${BODY}`);
  const written = await jobs(['schema', 'create', '--resolved', '--write'], { cwd: dir, env });
  expect(written.code, written.stderr).toBe(0);
  expect(written.stdout).toBe(`${join(dir, '.jobs/advert.schema.json')}\n`);

  client = new LspClient(process.execPath, [SERVER, '--stdio'], dir);
  const settings = { yaml: { validate: true, hover: false, completion: false, schemaStore: { enable: false } } };
  client.requestHandlers.set('workspace/configuration', (p) =>
    (p as { items: { section?: string }[] }).items.map((i) => (i.section === 'yaml' ? settings.yaml : null)),
  );
  await client.request('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    capabilities: { workspace: { configuration: true } },
    workspaceFolders: null,
  });
  client.notify('initialized', {});
  client.notify('workspace/didChangeConfiguration', { settings });
}, 60_000);

afterAll(async () => {
  await client?.close();
});

describe('yaml-language-server with the resolved schema agrees with jobs validate', () => {
  it('shows nothing on an advert that jobs validate accepts (defaults fill fields, a constant name stands for an id)', async () => {
    expect(await cliLines('adverts/valid.yaml')).toEqual({ valid: true, lines: [] });
    expect(await editorDiagnostics('adverts/valid.yaml')).toEqual([]);
    expect(await cliLines('adverts/id-as-number.yaml')).toEqual({ valid: true, lines: [] });
    expect(await editorDiagnostics('adverts/id-as-number.yaml')).toEqual([]);
    expect(await cliLines('adverts/dated.yaml')).toEqual({ valid: true, lines: [] });
    expect(await editorDiagnostics('adverts/dated.yaml')).toEqual([]);
    expect(await cliLines('adverts/places.yaml')).toEqual({ valid: true, lines: [] });
    expect(await editorDiagnostics('adverts/places.yaml')).toEqual([]);
  }, 60_000);

  for (const file of Object.keys(ADVERTS).filter((f) => f !== 'valid.yaml' && f !== 'id-as-number.yaml' && f !== 'dated.yaml' && f !== 'places.yaml')) {
    it(`marks the line jobs validate names: ${file}`, async () => {
      const cli = await cliLines(`adverts/${file}`);
      expect(cli.valid).toBe(false);
      expect(cli.lines.length).toBeGreaterThan(0);
      const diagnostics = await editorDiagnostics(`adverts/${file}`);
      expect(diagnostics.length, JSON.stringify(diagnostics)).toBeGreaterThan(0);
      let expected = cli.lines;
      if (file === 'state-rule.yaml') {
        // A field missing from a nested mapping: jobs points at the mapping's first line (`city:`),
        // the editor at the key that holds it (`location:`), the line above.
        const lines = readFileSync(join(dir, 'adverts', file), 'utf8').split('\n');
        expect(lines[cli.lines[0]! - 2]).toBe('location:');
        expected = cli.lines.map((l) => l - 1);
      }
      expect(
        [...new Set(diagnostics.map(lineOf))].sort((a, b) => a - b),
        JSON.stringify(diagnostics.map((d) => d.message)),
      ).toEqual(expected);
    }, 60_000);
  }

  it('the shipped schema, which knows nothing of the config, marks that valid advert red', async () => {
    const diagnostics = await editorDiagnostics('shipped/valid.yaml');
    expect(diagnostics.map((d) => d.message).join('\n')).toMatch(/organization_name|Incorrect type|contract_id/);
  }, 60_000);
});

describe('jobs init points new adverts at the resolved schema', () => {
  it('writes it beside the project config and names it in the modeline', async () => {
    const project = tempDir('jobs-editor-init-');
    writeFileSync(join(project, '.jobsrc.yaml'), CONFIG);
    const r = await jobs(['init', 'adverts/new.yaml'], { cwd: project, env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(project, 'adverts/new.yaml'), 'utf8').split('\n')[0]).toBe(RESOLVED.trim());
    const schema = JSON.parse(readFileSync(join(project, '.jobs/advert.schema.json'), 'utf8')) as { required: string[]; $id: string };
    expect(schema.required).not.toContain('organization_name');
    expect(schema.$id).toBe('urn:jobs-cli:schemas:advert:resolved');
    expect(r.stderr).toMatch(/run '[\w-]+ schema create --resolved --write'/);
  });

  it('does not write through a link in place of .jobs/', async () => {
    const project = tempDir('jobs-editor-link-');
    const elsewhere = tempDir('jobs-editor-elsewhere-');
    writeFileSync(join(project, '.jobsrc.yaml'), CONFIG);
    symlinkSync(elsewhere, join(project, '.jobs'));
    const r = await jobs(['schema', 'create', '--resolved', '--write'], { cwd: project, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is a symbolic link');
    expect(existsSync(join(elsewhere, 'advert.schema.json'))).toBe(false);
  });
});
