/**
 * The requirements list: a heading (written in any case, with Markdown marks, spaces or a colon
 * around it) followed by more than MAX_REQUIREMENTS items is one finding at the heading; a line of
 * prose that merely holds a heading's words is no heading.
 */
import { describe, expect, it } from 'vitest';
import { checkWording, MAX_REQUIREMENTS } from '../../../src/core/wording/check.js';

const advert = (description: string) => ({ title: 'Engineer', job_description: description, location: { country: 'US', city: 'Denver' } });
const items = (n: number) => Array.from({ length: n }, (_, i) => `- skill number ${i + 1}`).join('\n');
const requirements = (description: string) =>
  checkWording(advert(description), { off: [], allow: [] }, undefined).filter((b) => b.message.startsWith('wording_requirements:'));

describe('a long requirements list', () => {
  it('is found under a heading however it is marked up', () => {
    for (const heading of ['Requirements', '## What you bring:', '  **Qualifications**  ', 'MUST   HAVE:']) {
      const text = `We build things.\n${heading}\n\n${items(MAX_REQUIREMENTS + 1)}\n`;
      const found = requirements(text);
      expect(found, heading).toHaveLength(1);
      const [, index, length, count] = found[0]!.message.split(':');
      expect(text.slice(Number(index), Number(index) + Number(length))).toBe(heading.trim());
      expect(count).toBe(String(MAX_REQUIREMENTS + 1));
    }
  });

  it('is not found under a line of prose, nor when the list is short enough', () => {
    expect(requirements(`Our requirements are modest, and the list below is long.\n${items(MAX_REQUIREMENTS + 3)}\n`)).toEqual([]);
    expect(requirements(`Requirements:\n${items(MAX_REQUIREMENTS)}\n`)).toEqual([]);
  });
});
