/**
 * `defaults.locations` is refused by the config check (a default list of places would be sent as an
 * unknown `locations` array: places are read from an advert's own file, before defaults apply).
 */
import { describe, expect, it } from 'vitest';
import { checkConfig } from '../../../src/core/config/schema.js';

describe('checkConfig and defaults.locations', () => {
  it('refuses defaults.locations, with the way that works; defaults.location is fine', () => {
    const [problem, ...more] = checkConfig({ defaults: { locations: [{ country: 'NO', city: 'Oslo' }] } });
    expect(more).toEqual([]);
    expect(problem).toMatchObject({ key: ['defaults', 'locations'], located: true });
    expect(problem!.message).toContain('Set defaults.location for one place every advert shares');
    expect(checkConfig({ defaults: { location: { country: 'NO', city: 'Oslo' } } })).toEqual([]);
  });

  it('is reported with the schema problems of the same file', () => {
    expect(checkConfig({ retries: 'x', defaults: { locations: [] } }).map((p) => p.key.join('.'))).toEqual(['defaults.locations', 'retries']);
  });
});
