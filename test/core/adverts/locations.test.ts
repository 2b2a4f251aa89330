import { describe, expect, it } from 'vitest';
import { parseAdverts } from '../../../src/core/adverts/parse.js';
import { citySlug, expansionOf, placeReference, placesByGroup } from '../../../src/core/adverts/locations.js';
import { checkAdvert, NO_SETTINGS } from '../../../src/core/validation/check.js';
import { validateAdvert } from '../../../src/core/validation/validate.js';

const REST =
  'title: T\norganization_name: O\ncompany_description: C\njob_description: J\ncontract_id: 1\nsalary_id: 1\nsalary_text: S\nindustry_id: 1\ndepartment_id: 1\nseniority: 0\neducation: 0\nrecruiter:\n  email: r@example.com\n';

const read = (text: string) => parseAdverts('eng.yaml', text);

describe('the reference of a place', () => {
  it('is the file reference and the city in lower case, accents dropped, other characters as one -', () => {
    expect(citySlug('Berlin')).toBe('berlin');
    expect(citySlug('São Paulo')).toBe('sao-paulo');
    expect(citySlug('Frankfurt am Main')).toBe('frankfurt-am-main');
    expect(citySlug("L'Aquila")).toBe('l-aquila');
    expect(citySlug('  Saint-Étienne  ')).toBe('saint-etienne');
    expect(citySlug('Düsseldorf')).toBe('dusseldorf');
    expect(citySlug('Gießen')).toBe('giessen');
    expect(citySlug('Tromsø')).toBe('tromso');
    expect(citySlug('Łódź')).toBe('lodz');
    expect(citySlug('東京')).toBe('東京');
    expect(citySlug('--')).toBe('');
    expect(placeReference('ACME-0042', { country: 'DE', city: 'Köln' })).toBe('ACME-0042-koln');
    expect(placeReference(undefined, { country: 'DE', city: 'Köln' })).toBeUndefined();
    expect(placeReference('ACME-0042', { country: 'DE' })).toBeUndefined();
  });
});

describe('an advert for several places', () => {
  const text = `reference: ACME-0042\n${REST}locations:\n  - country: DE\n    city: Berlin\n  - country: NO\n    city: Oslo\n    reference: ACME-OSLO\n  - country: US\n    city: New York\n    state: NY\n`;

  it('is read as one advert per place, each with its location and reference, the rest shared', () => {
    const r = read(text);
    expect(r.problems).toEqual([]);
    expect(r.adverts.map((a) => [a.value.reference, a.value.location])).toEqual([
      ['ACME-0042-berlin', { country: 'DE', city: 'Berlin' }],
      ['ACME-OSLO', { country: 'NO', city: 'Oslo' }],
      ['ACME-0042-new-york', { country: 'US', city: 'New York', state: 'NY' }],
    ]);
    for (const a of r.adverts) {
      expect(a.value).not.toHaveProperty('locations');
      expect(a.value.title).toBe('T');
      expect(a.index).toBe(0);
      expect(validateAdvert(a.value)).toEqual({});
    }
    expect(r.adverts.map((a) => expansionOf(a))).toEqual([
      { group: 'ACME-0042', item: 0, first: true, placeReference: true },
      { group: 'ACME-0042', item: 1, first: false, placeReference: true },
      { group: 'ACME-0042', item: 2, first: false, placeReference: true },
    ]);
  });

  it('gives each place the same advert whatever the order of the list', () => {
    const reordered = `reference: ACME-0042\n${REST}locations:\n  - country: US\n    city: New York\n    state: NY\n  - country: DE\n    city: Berlin\n  - reference: ACME-OSLO\n    city: Oslo\n    country: NO\n`;
    const byReference = (t: string) => Object.fromEntries(read(t).adverts.map((a) => [a.value.reference, JSON.stringify(a.value)]));
    const before = byReference(text);
    const after = byReference(reordered);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const reference of Object.keys(before)) expect(JSON.parse(after[reference]!)).toEqual(JSON.parse(before[reference]!));
  });

  it('points location fields and a made reference at the list item, the rest at their lines', () => {
    const [berlin, oslo, newYork] = read(text).adverts;
    expect(berlin!.locate(['location', 'city'])).toEqual({ line: 17, column: 11 });
    expect(berlin!.locate(['reference'])).toEqual({ line: 16, column: 5 });
    expect(oslo!.locate(['reference'])).toEqual({ line: 20, column: 16 });
    expect(newYork!.locate(['location', 'state'])).toEqual({ line: 23, column: 12 });
    expect(newYork!.locate(['title'])).toEqual({ line: 2, column: 8 });
    expect(newYork!.locate([])).toEqual({ line: 21, column: 5 });
  });

  it('needs a state for a place in the US, CA or MX, reported at that place with its path in the file', () => {
    const r = read(`reference: ACME-0042\n${REST}locations:\n  - country: DE\n    city: Berlin\n  - country: MX\n    city: Monterrey\n`);
    const checked = r.adverts.map((a) => checkAdvert(a, NO_SETTINGS));
    expect(checked.map((c) => c.tree)).toEqual([{}, { location: { state: ['missing'] } }]);
    expect(r.adverts[1]!.locate(['location', 'state'])).toEqual({ line: 18, column: 5 });
  });

  it('refuses two places that make one reference, at the second, and keeps the first', () => {
    const r = read(
      `reference: ACME-0042\n${REST}locations:\n  - country: DE\n    city: Frankfurt am Main\n  - country: DE\n    city: Frankfurt (Oder)\n  - country: DE\n    city: frankfurt-am-main\n`,
    );
    expect(r.adverts.map((a) => a.value.reference)).toEqual(['ACME-0042-frankfurt-am-main', 'ACME-0042-frankfurt-oder']);
    expect(r.problems).toEqual([
      {
        file: 'eng.yaml',
        position: { line: 20, column: 5 },
        message: `this place's reference "ACME-0042-frankfurt-am-main" is already the reference of the place at line 16: give one of them its own \`reference:\` (a place's reference is the file's reference and its city)`,
        code: 'duplicate_reference',
      },
    ]);
  });

  it('refuses a city that makes no reference, and location beside locations', () => {
    expect(read(`reference: A\n${REST}locations:\n  - country: DE\n    city: "?!"\n`).problems.map((p) => [p.code, p.position])).toEqual([
      ['no_place_reference', { line: 17, column: 11 }],
    ]);
    const both = read(`reference: A\n${REST}location:\n  country: DE\n  city: Bonn\nlocations:\n  - country: DE\n    city: Berlin\n`);
    expect(both.problems.map((p) => [p.code, p.position])).toEqual([['location_and_locations', { line: 19, column: 3 }]]);
    expect(both.adverts.map((a) => a.value.location)).toEqual([{ country: 'DE', city: 'Bonn' }]);
  });

  it('leaves a list that is empty or not a list to the schema', () => {
    const empty = read(`reference: A\n${REST}locations: []\n`);
    expect(empty.adverts).toHaveLength(1);
    expect(checkAdvert(empty.adverts[0]!, NO_SETTINGS).tree).toEqual({ locations: ['too_short:1'] });
    const text = read(`reference: A\n${REST}locations: Berlin\n`);
    expect(checkAdvert(text.adverts[0]!, NO_SETTINGS).tree).toEqual({ locations: ['invalid'] });
  });

  it('names location as missing when neither location nor locations is given', () => {
    const [advert] = read(`reference: A\n${REST}`).adverts;
    expect(checkAdvert(advert!, NO_SETTINGS).tree).toEqual({ location: ['missing'] });
  });

  it('reads an unquoted country in a list item as text (NO stays "NO")', () => {
    const [oslo] = read(`reference: A\n${REST}locations:\n  - country: NO\n    city: Oslo\n`).adverts;
    expect(oslo!.value.location).toEqual({ country: 'NO', city: 'Oslo' });
  });

  it('leaves an advert with one location as it was', () => {
    const r = read(`reference: A\n${REST}location:\n  country: NO\n  city: Oslo\n`);
    expect(r.adverts[0]!.value.reference).toBe('A');
    expect(expansionOf(r.adverts[0]!)).toBeUndefined();
  });
});

describe('odd lists', () => {
  it('are findings at their items, never a crash', () => {
    for (const list of [
      '[null]',
      '[[DE, Berlin]]',
      '[Berlin]',
      '[{reference: [x], country: DE, city: Bonn}]',
      '[{country: DE, city: [x]}]',
      '[{country: DE}]',
      '[{}]',
      '[{reference: "", country: DE, city: Bonn}]',
    ]) {
      const r = read(`reference: A\n${REST}locations: ${list}\n`);
      const trees = r.adverts.map((a) => checkAdvert(a, NO_SETTINGS).tree);
      expect(r.problems.length + trees.filter((t) => Object.keys(t).length > 0).length, list).toBeGreaterThan(0);
    }
    // Without a reference of its own, no place can make one: the file's reference is missing, said once.
    const none = read(`${REST}locations:\n  - country: DE\n    city: Bonn\n  - country: DE\n    city: Kiel\n`);
    expect(none.adverts.map((a) => checkAdvert(a, NO_SETTINGS).tree)).toEqual([{ reference: ['missing'] }, { reference: ['missing'] }]);
  });
});

describe('groups', () => {
  it('lists the places of each group from records', () => {
    const groups = placesByGroup([
      ['A-oslo', { group: 'A' }],
      ['B', {}],
      ['A-bergen', { group: 'A' }],
    ]);
    expect([...groups]).toEqual([['A', ['A-bergen', 'A-oslo']]]);
  });
});
