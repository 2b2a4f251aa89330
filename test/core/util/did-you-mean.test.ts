import { describe, expect, it } from 'vitest';
import { didYouMean } from '../../../src/core/util/did-you-mean.js';

describe('one suggester for every mistyped name', () => {
  it('ignores case, - and _ before counting edits', () => {
    expect(didYouMean('Base-URL', ['base_url', 'token'])).toBe('base_url');
    expect(didYouMean('TITLE', ['title', 'tile'])).toBe('title');
  });

  it('allows 1 edit up to 4 characters, 2 up to 8, 3 beyond', () => {
    // 4 characters: one edit, not two (the config suggester used to allow two here).
    expect(didYouMean('tken', ['token'])).toBe('token');
    expect(didYouMean('tkn', ['token'])).toBeUndefined();
    expect(didYouMean('kind', ['kid'])).toBe('kid');
    // 8 characters: two edits, not three.
    expect(didYouMean('timout_m', ['timeout_ms'])).toBe('timeout_ms');
    expect(didYouMean('tmout_xx', ['timeout_ms'])).toBeUndefined();
    // 12 characters: three edits, not four (the config suggester used to allow floor(12 / 3) = 4).
    expect(didYouMean('konkurrencyx', ['concurrency'])).toBe('concurrency');
    expect(didYouMean('kankurrencyy', ['concurrency'])).toBeUndefined();
  });

  it('a swapped pair of letters is one edit', () => {
    expect(didYouMean('tilte', ['title'])).toBe('title');
  });
});

describe('the edit distance, cut off', () => {
  it('is exact up to the cut-off and says only "more" past it', async () => {
    const { distance } = await import('../../../src/core/util/did-you-mean.js');
    expect(distance('kitten', 'sitting')).toBe(3);
    expect(distance('kitten', 'sitting', 3)).toBe(3);
    expect(distance('kitten', 'sitting', 2)).toBe(3);
    expect(distance('kitten', 'sitting', 1)).toBe(2);
    expect(distance('ab', 'ba', 1)).toBe(1);
    expect(distance('a', 'abcdef', 2)).toBe(3);
  });
  it('gives the same answers over many words as the uncut distance would', async () => {
    const { didYouMean } = await import('../../../src/core/util/did-you-mean.js');
    const fields = ['title', 'reference', 'job_description', 'company_description', 'salary_text', 'skills', 'location', 'start_date'];
    expect(didYouMean('titel', fields)).toBe('title');
    expect(didYouMean('refrence', fields)).toBe('reference');
    expect(didYouMean('job_descripton', fields)).toBe('job_description');
    expect(didYouMean('skils', fields)).toBe('skills');
    expect(didYouMean('unknown_123', fields)).toBeUndefined();
  });
});
