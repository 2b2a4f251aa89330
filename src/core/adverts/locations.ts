/**
 * One advert for several places. An advert may list `locations:` instead of one `location:`; it is
 * read as one advert per place, each with `location` set to that place and a reference of its own:
 *
 * - the place's own `reference:`, when the list item gives one;
 * - otherwise `<the file's reference>-<city slug>`: the city in lower case, accents dropped, every
 *   run of characters other than letters and digits as one `-` (`São Paulo` -> `sao-paulo`).
 *
 * A place's reference depends on the place alone, never on its position in the list: reordering the
 * list changes no advert, adding a place adds one, removing one leaves the others as they are. Two
 * places of one file that come to the same reference are an error at the second (give one its own
 * `reference:`). The expansion happens as a file is read (load.ts), so every command after it
 * (validate, publish, sync, the threaded bulk check) sees ordinary adverts, each pointing back at
 * its list item for `location.*` and a reference made from it.
 */
import { normalReference } from './reference.js';
import type { AdvertSource, LoadProblem, PathSegment } from './types.js';

/** What ties an advert made from a `locations:` list back to its file's advert. */
export interface Expansion {
  /** The file's own `reference`: the group's name (absent when the file gives none). */
  group?: string;
  /** The place's index in the file's `locations` list. */
  item: number;
  /** The first advert made from the list: findings about the fields the places share are reported with it only. */
  first: boolean;
  /** The reference is the place's (the item's `reference:` or one made from its city), not the file's. */
  placeReference: boolean;
}

/** An advert read from a `locations:` list carries its expansion. */
export type ExpandedSource = AdvertSource & { expansion?: Expansion };

export function expansionOf(source: AdvertSource): Expansion | undefined {
  return (source as ExpandedSource).expansion;
}

/** Letters the accent-dropping fold (NFKD) leaves alone but that have a plain Latin spelling. */
const LATIN_FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** The city as it appears in a reference: `Frankfurt am Main` -> `frankfurt-am-main`; '' when it has no letter or digit. */
export function citySlug(city: string): string {
  const folded = city
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæøœłđðþı]/g, (c) => LATIN_FOLDS[c]!);
  return folded
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .normalize('NFC');
}

/** The reference a place gets from its file's reference and its city, or undefined when one of them is missing. */
export function placeReference(fileReference: unknown, location: unknown): string | undefined {
  if (typeof fileReference !== 'string' || fileReference.trim() === '' || !isObject(location) || typeof location.city !== 'string') return undefined;
  const slug = citySlug(location.city);
  return slug === '' ? undefined : `${normalReference(fileReference)}-${slug}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A file's adverts with every `locations:` list read as one advert per place (see above); adverts
 * without one are returned as they are. Problems: `location` and `locations` both given, two places
 * with one reference, a city that makes no reference.
 */
export function expandLocations<T extends { adverts: AdvertSource[]; problems: LoadProblem[] }>(result: T): T {
  if (!result.adverts.some((a) => Object.hasOwn(a.value, 'locations'))) return result;
  const adverts: AdvertSource[] = [];
  const problems = [...result.problems];
  for (const advert of result.adverts) {
    if (!Object.hasOwn(advert.value, 'locations')) adverts.push(advert);
    else for (const a of expandAdvert(advert, problems)) adverts.push(a);
  }
  return { ...result, adverts, problems };
}

function expandAdvert(source: AdvertSource, problems: LoadProblem[]): AdvertSource[] {
  const value = source.value;
  const list = value.locations;
  const at = (path: readonly PathSegment[]) => source.locate(path);
  if (Object.hasOwn(value, 'location')) {
    problems.push({
      file: source.file,
      position: at(['locations']),
      message:
        'the advert gives both `location` and `locations`: keep `location` for one place, or move it into the `locations` list (one advert is published per place)',
      code: 'location_and_locations',
    });
    // The rest of the advert is still checked, as for one place.
    const { locations: _dropped, ...rest } = value;
    return [{ ...source, value: rest }];
  }
  // Not a list of places (or an empty one): the schema says what is wrong at `locations`.
  if (!Array.isArray(list) || list.length === 0) return [source];
  const group = typeof value.reference === 'string' && value.reference.trim() !== '' ? normalReference(value.reference) : undefined;
  const taken = new Map<string, number>();
  const out: AdvertSource[] = [];
  list.forEach((item: unknown, i) => {
    const own = isObject(item) && Object.hasOwn(item, 'reference') ? item.reference : undefined;
    let location: unknown = item;
    if (isObject(item) && Object.hasOwn(item, 'reference')) {
      const { reference: _own, ...rest } = item;
      location = rest;
    }
    const reference = own !== undefined ? (typeof own === 'string' ? normalReference(own) : own) : placeReference(group, location);
    if (
      own === undefined &&
      reference === undefined &&
      group !== undefined &&
      isObject(location) &&
      typeof location.city === 'string' &&
      location.city.trim() !== ''
    ) {
      problems.push({
        file: source.file,
        position: at(['locations', i, 'city']),
        message: `no reference can be made from the city ${JSON.stringify(location.city)} (it has no letter or digit): give this place its own \`reference:\``,
        code: 'no_place_reference',
      });
      return;
    }
    if (typeof reference === 'string') {
      const earlier = taken.get(reference);
      if (earlier !== undefined) {
        const first = at(['locations', earlier]);
        problems.push({
          file: source.file,
          position: at(['locations', i]),
          message: `this place's reference ${JSON.stringify(reference)} is already the reference of the place at line ${first.line}: give one of them its own \`reference:\` (a place's reference is the file's reference and its city)`,
          code: 'duplicate_reference',
        });
        return;
      }
      taken.set(reference, i);
    }
    // Made from the place (or to be: a place without a city has none, and says so at its city).
    const placeRef = own !== undefined || group !== undefined;
    const expansion: Expansion = { ...(group === undefined ? {} : { group }), item: i, first: out.length === 0, placeReference: placeRef };
    const expanded: ExpandedSource = {
      file: source.file,
      index: source.index,
      value: placeValue(value, location, reference),
      locate: (path) => {
        // The advert itself starts at its place in the list.
        if (path.length === 0) return at(['locations', i]);
        if (path[0] === 'location') return at(['locations', i, ...path.slice(1)]);
        if (path[0] === 'reference' && path.length === 1 && placeRef) return at(own !== undefined ? ['locations', i, 'reference'] : ['locations', i]);
        return at(path);
      },
      expansion,
    };
    out.push(expanded);
  });
  return out;
}

/** The advert for one place: its fields in the file's order, `location` where `locations` was. */
function placeValue(value: Record<string, unknown>, location: unknown, reference: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const set = (key: string, v: unknown) => Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  if (reference !== undefined && !Object.hasOwn(value, 'reference')) set('reference', reference);
  for (const key of Object.keys(value)) {
    if (key === 'locations') set('location', location);
    else if (key === 'reference') {
      if (reference !== undefined) set('reference', reference);
    } else set(key, value[key]);
  }
  return out;
}

/** A finding's dotted path (`location.state`) as the file writes it for this place (`locations[2].state`). */
export function pathInFile(expansion: Expansion, path: string): string {
  if (path === 'location' || path.startsWith('location.')) return `locations[${expansion.item}]${path.slice('location'.length)}`;
  if (path === 'reference' && expansion.placeReference) return `locations[${expansion.item}]`;
  return path;
}

/**
 * Findings of one advert as its file reads them: for an advert made from a `locations:` list, a
 * finding about a field its places share is reported once (with the first place), and paths name
 * the list item. Other adverts' findings are returned as they are.
 */
export function placeFindings<F extends { path: string }>(source: AdvertSource, findings: F[]): F[] {
  const expansion = expansionOf(source);
  if (!expansion) return findings;
  const own = (path: string) => path === 'location' || path.startsWith('location.') || (path === 'reference' && expansion.placeReference);
  // A place without a city has no reference to make: its city's finding says so, once.
  const noCity = findings.some((f) => f.path === 'location.city' || f.path === 'location');
  return findings
    .filter((f) => (expansion.first || own(f.path)) && !(noCity && f.path === 'reference' && expansion.placeReference))
    .map((f) => ({ ...f, path: pathInFile(expansion, f.path) }));
}

/** The places of each group (reference -> group, as a sync state records them): group -> references, sorted. */
export function placesByGroup(records: Iterable<[string, { group?: string | undefined }]>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const [reference, record] of records) {
    if (record.group === undefined) continue;
    let places = groups.get(record.group);
    if (!places) groups.set(record.group, (places = []));
    places.push(reference);
  }
  for (const places of groups.values()) places.sort();
  return groups;
}
