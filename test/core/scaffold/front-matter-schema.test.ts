/** The front-matter schema checks a Markdown advert's front matter as `jobs validate` reads it: every field but the body's. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { frontMatterSchema } from '../../../src/core/scaffold/front-matter-schema.js';
import { splitMarkdown } from '../../../src/core/adverts/markdown.js';
import { runJobs } from '../../commands/harness.js';
import { tempDir } from '../../support/temp-dirs.js';

const shipped = JSON.parse(readFileSync(new URL('../../../schemas/advert.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const compile = (schema: Record<string, unknown>) => {
  const ajv = new Ajv2020.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(schema);
};

describe('the front-matter schema', () => {
  it("accepts the front matter of `jobs init --markdown`'s advert, which the advert schema refuses for want of job_description", async () => {
    const dir = tempDir('jobs-front-matter-');
    const init = await runJobs(['init', '--markdown'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const parts = splitMarkdown(readFileSync(join(dir, 'advert.md'), 'utf8'));
    if (!('body' in parts)) throw new Error(parts.message);
    const front = parse(parts.frontMatter) as Record<string, unknown>;
    expect(compile(shipped)(front)).toBe(false);
    const check = compile(frontMatterSchema(shipped));
    expect(check(front), JSON.stringify(check.errors)).toBe(true);
    // The body is the job description: a front matter that gives it too is refused, as validate refuses it.
    expect(check({ ...front, job_description: 'twice' })).toBe(false);
    // Every other rule stays: a required field missing is still refused.
    const { title: _title, ...untitled } = front;
    expect(check(untitled)).toBe(false);
  });

  it('is printed by `jobs schema --front-matter`, and refused with update, --path and --write (exit 2)', async () => {
    const printed = await runJobs(['schema', '--front-matter']);
    expect(printed.code, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(frontMatterSchema(shipped));
    for (const args of [
      ['schema', 'update', '--front-matter'],
      ['schema', '--front-matter', '--path'],
      ['schema', '--front-matter', '--resolved', '--write'],
    ]) {
      const refused = await runJobs(args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr).toContain('--front-matter');
    }
  });
});
