/** The executor reads each advert again when it sends it: only what was planned is sent. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advertReader } from '../../../src/core/bulk/reread.js';
import { makePlan } from '../../../src/core/sync/plan.js';
import { loadAdverts } from '../../../src/core/adverts/load.js';
import { checkAdvert, NO_SETTINGS } from '../../../src/core/validation/check.js';
import { tempDir } from '../../support/temp-dirs.js';

const advert = (reference: string, seniority: number) =>
  `reference: ${reference}\ntitle: T\norganization_name: O\ncompany_description: C\njob_description: J\ncontract_id: 1\nsalary_id: 1\nsalary_text: S\nindustry_id: 1\ndepartment_id: 1\nseniority: ${seniority}\neducation: 0\nlocation:\n  country: FR\n  city: Lyon\nrecruiter:\n  email: r@example.com\n`;

async function planOf(cwd: string) {
  const loaded = await loadAdverts(['.'], { cwd, stdin: async function* () {}, uniqueReferences: true });
  const checked = loaded.adverts.map((a) => checkAdvert(a, NO_SETTINGS));
  return makePlan(checked, new Map(), { prune: false, force: false, fileOf: (a) => a.source.file, keepAdverts: false });
}

describe('reading an advert again to send it', () => {
  it('gives each document of a file as planned, and the plan keeps no advert', async () => {
    const cwd = tempDir('jobs-reread-');
    writeFileSync(join(cwd, 'two.yaml'), `${advert('A-1', 1)}---\n${advert('B-2', 2)}`);
    const plan = await planOf(cwd);
    expect(plan.changes.map((c) => [c.action, c.reference, c.document, 'advert' in c])).toEqual([
      ['create', 'A-1', 0, false],
      ['create', 'B-2', 1, false],
    ]);
    const read = advertReader(cwd, NO_SETTINGS, {}, 8);
    expect((await read(plan.changes[1]!)).payload).toMatchObject({ reference: 'B-2', seniority: 2 });
    expect((await read(plan.changes[0]!)).payload).toMatchObject({ reference: 'A-1', seniority: 1 });
  });

  it('refuses an advert whose file changed since the plan: nothing of it is sent', async () => {
    const cwd = tempDir('jobs-reread-');
    writeFileSync(join(cwd, 'a.yaml'), advert('A-1', 1));
    const plan = await planOf(cwd);
    writeFileSync(join(cwd, 'a.yaml'), advert('A-1', 5));
    await expect(advertReader(cwd, NO_SETTINGS, {}, 8)(plan.changes[0]!)).rejects.toThrow('a.yaml changed since the plan was made; nothing was sent for A-1');
  });
});
