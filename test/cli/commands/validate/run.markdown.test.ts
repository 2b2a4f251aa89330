/** validate (in-process) of a Markdown advert larger than the part a large file is read in. */
import { describe, expect, it } from 'vitest';
import { runJobs, tempFolder } from '../../../commands/harness.js';
import { markdownAdvert } from '../../../support/markdown-adverts.js';
import { PART_CHARS } from '../../../../src/core/adverts/load.js';

describe('jobs validate of a large Markdown advert', () => {
  it('reads a body over the part size whole (no YAML document groups), findings at the .md lines', async () => {
    const body = `${'A line of the job description, repeated to make a large file.\n'.repeat(Math.ceil((PART_CHARS * 1.3) / 60))}---\nstill the body\n`;
    const dir = tempFolder({ 'big.md': markdownAdvert('BIG-1', body).replace('seniority: 0', 'seniority: -1') });
    const r = await runJobs(['validate', 'big.md'], { cwd: dir });
    expect(r.stdout).toBe('✖ big.md:11:12: seniority: must be at least 0 [less_than:0]\n');
    expect(r.stderr).toBe('✖ 1 error: 1 advert in 1 file checked, 1 invalid\n');
    expect(r.code).toBe(3);
  });
});
