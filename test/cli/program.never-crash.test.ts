/**
 * Property tests: whatever the input, `jobs validate` ends with a documented exit code (0, 2 or 3)
 * and a readable message, never a stack trace; and whatever a server answers, a command that calls
 * it ends with a documented exit code and a readable message.
 */
import fc from 'fast-check';
import nock from 'nock';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advertYaml, runJobs, SERVICE, serviceEnv, tempFolder } from '../commands/harness.js';

const STACK = /\n\s+at .+:\d+:\d+\)?\n/;
const DOCUMENTED = new Set([0, 1, 2, 3, 4, 5, 6, 7]);

/** YAML-ish text: fragments of adverts, YAML syntax, and noise. */
const yamlText = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'reference: A',
          'title: ',
          '  city: Oslo',
          'location:',
          '- x',
          '---',
          '&a [1, *a]',
          '*b',
          '? x',
          '"unterminated',
          "'q'",
          '|',
          '>-',
          '{a: 1',
          '[',
          '#c',
          '\t',
          'seniority: 0x1F',
          'skills: [a, b]',
          '!!binary x',
          '%YAML 1.2',
          '<<: *a',
          '__proto__: 1',
          'constructor: 2',
        ),
        fc.string({ maxLength: 20 }),
      ),
      { maxLength: 25 },
    )
    .map((lines) => lines.join('\n')),
  fc
    .constant(advertYaml('P-1'))
    .chain((base) => fc.integer({ min: 0, max: base.length }).chain((at) => fc.string({ maxLength: 5 }).map((s) => base.slice(0, at) + s + base.slice(at)))),
);

describe('jobs validate never crashes', () => {
  it('on arbitrary text: exit 0, 2 or 3 with a readable message', async () => {
    const dir = tempFolder({});
    let n = 0;
    await fc.assert(
      fc.asyncProperty(yamlText, async (text) => {
        const file = join(dir, `f${n++}.yaml`);
        writeFileSync(file, text);
        const r = await runJobs(['validate', file], { cwd: dir });
        expect([0, 2, 3]).toContain(r.code);
        expect(r.stdout + r.stderr).not.toMatch(STACK);
        expect(r.stderr).not.toContain('unexpected error');
      }),
      { numRuns: 150 },
    );
  });

  it('on arbitrary advert-shaped values', async () => {
    const dir = tempFolder({});
    let n = 0;
    const value = fc.dictionary(
      fc.constantFrom('reference', 'title', 'seniority', 'location', 'recruiter', 'skills', 'start_date', 'contract_id', 'x'),
      fc.oneof(
        fc.string(),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.string(), { maxKeys: 3 }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(value, async (advert) => {
        const file = join(dir, `a${n++}.json`);
        writeFileSync(file, JSON.stringify(advert));
        const r = await runJobs(['validate', file, '--json'], { cwd: dir });
        expect([0, 3]).toContain(r.code);
        expect(() => JSON.parse(r.stdout)).not.toThrow();
      }),
      { numRuns: 150 },
    );
  });
});

describe('commands never crash on what a server answers', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.cleanAll());

  const body = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.json({ maxDepth: 3 }),
    fc.constantFrom(
      '',
      '{"errors":{"title":["too_long:80"]}}',
      '{"errors":[]}',
      '{"errors":{"a":{"b":[1]}}}',
      '<html>502</html>',
      '\u001b[31mred\u001b[0m',
      '{"views":"1"}',
      '{"views":1,"likes":2,"applications":3,"applications_unviewed":4}',
      '{',
    ),
  );
  const status = fc.oneof(fc.constantFrom(200, 201, 204, 301, 400, 401, 404, 409, 422, 429, 500, 502, 503), fc.integer({ min: 200, max: 599 }));

  it('stats and publish end with a documented exit code and a clean message', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('P-1') });
    await fc.assert(
      fc.asyncProperty(status, body, fc.boolean(), async (code, text, isStats) => {
        nock.cleanAll();
        const scope = nock(SERVICE)
          .persist()
          .intercept(/.*/, isStats ? 'GET' : 'POST')
          .reply(code, text, { 'content-type': 'application/json' })
          .intercept(/.*/, 'PUT')
          .reply(code, text);
        const argv = isStats ? ['stats', 'P-1', '--retries', '0'] : ['publish', 'a.yaml', '--retries', '0'];
        const r = await runJobs(argv, { cwd: dir, env: serviceEnv });
        scope.persist(false);
        expect(DOCUMENTED.has(r.code)).toBe(true);
        const shown = r.stdout + r.stderr;
        expect(shown).not.toMatch(STACK);
        expect(shown).not.toContain('\u001b[');
        expect(shown).not.toContain('unexpected error');
        expect(shown).not.toContain(serviceEnv.JOBS_TOKEN);
      }),
      { numRuns: 120 },
    );
  });
});
