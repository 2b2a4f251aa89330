/**
 * Places as rules name them: ISO 3166-1 alpha-2 (`AT`), ISO 3166-2 (`US-CO`), or a city place
 * `<ISO 3166-2>/<slug>` (`US-NY/new-york-city`). An advert's `location` is read into the places it
 * is in; `jobs.remote.from` names places directly and is checked here (an unknown one is an error).
 *
 * The subdivisions of the three countries whose adverts must give a state (US, CA, MX) are listed
 * with their names, so `state: Colorado` and `state: CO` are one place. Elsewhere a subdivision code
 * is taken when it has the ISO 3166-2 shape (the tool does not carry every country's list).
 */
import { advertFacts } from '../generated/advert-facts.js';

let lists: Record<string, Record<string, string>> | undefined;

/** The listed subdivisions of a country (US, CA, MX), made at the first look: most runs make none. */
function listedIn(country: string): Record<string, string> | undefined {
  if (!lists) {
    const US: Record<string, string> = {
      AL: 'Alabama',
      AK: 'Alaska',
      AZ: 'Arizona',
      AR: 'Arkansas',
      CA: 'California',
      CO: 'Colorado',
      CT: 'Connecticut',
      DE: 'Delaware',
      FL: 'Florida',
      GA: 'Georgia',
      HI: 'Hawaii',
      ID: 'Idaho',
      IL: 'Illinois',
      IN: 'Indiana',
      IA: 'Iowa',
      KS: 'Kansas',
      KY: 'Kentucky',
      LA: 'Louisiana',
      ME: 'Maine',
      MD: 'Maryland',
      MA: 'Massachusetts',
      MI: 'Michigan',
      MN: 'Minnesota',
      MS: 'Mississippi',
      MO: 'Missouri',
      MT: 'Montana',
      NE: 'Nebraska',
      NV: 'Nevada',
      NH: 'New Hampshire',
      NJ: 'New Jersey',
      NM: 'New Mexico',
      NY: 'New York',
      NC: 'North Carolina',
      ND: 'North Dakota',
      OH: 'Ohio',
      OK: 'Oklahoma',
      OR: 'Oregon',
      PA: 'Pennsylvania',
      RI: 'Rhode Island',
      SC: 'South Carolina',
      SD: 'South Dakota',
      TN: 'Tennessee',
      TX: 'Texas',
      UT: 'Utah',
      VT: 'Vermont',
      VA: 'Virginia',
      WA: 'Washington',
      WV: 'West Virginia',
      WI: 'Wisconsin',
      WY: 'Wyoming',
      DC: 'District of Columbia',
      AS: 'American Samoa',
      GU: 'Guam',
      MP: 'Northern Mariana Islands',
      PR: 'Puerto Rico',
      UM: 'United States Minor Outlying Islands',
      VI: 'Virgin Islands',
    };
    const CA: Record<string, string> = {
      AB: 'Alberta',
      BC: 'British Columbia',
      MB: 'Manitoba',
      NB: 'New Brunswick',
      NL: 'Newfoundland and Labrador',
      NS: 'Nova Scotia',
      NT: 'Northwest Territories',
      NU: 'Nunavut',
      ON: 'Ontario',
      PE: 'Prince Edward Island',
      QC: 'Quebec',
      SK: 'Saskatchewan',
      YT: 'Yukon',
    };
    const MX: Record<string, string> = Object.fromEntries(
      'AGU BCN BCS CAM CHP CHH CMX COA COL DUR GUA GRO HID JAL MEX MIC MOR NAY NLE OAX PUE QUE ROO SLP SIN SON TAB TAM TLA VER YUC ZAC'
        .split(' ')
        .map((code) => [code, code]),
    );
    lists = { US, CA, MX };
  }
  return Object.hasOwn(lists, country) ? lists[country] : undefined;
}

/** Lower case, accents dropped, runs of other characters as one space: `São  Paulo` and `sao paulo` are one city. */
export function foldName(name: string): string {
  // Most names are plain ASCII: no decomposition needed (NFKD costs a validate of many adverts).
  if (/^[\x20-\x7e]*$/.test(name))
    return name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const countries = (): readonly unknown[] => advertFacts.enums['location.country'] ?? [];

function isCountry(code: string): boolean {
  const known = countries();
  return /^[A-Z]{2}$/.test(code) && (known.length === 0 || known.includes(code));
}

/** The ISO 3166-2 code of a location's `state` (a code or, for US and CA, a name), or undefined. */
export function subdivisionOf(country: string, state: unknown): string | undefined {
  if (typeof state !== 'string' || state.trim() === '') return undefined;
  const written = state.trim();
  const listed = listedIn(country);
  const upper = written.toUpperCase();
  const code = upper.startsWith(`${country}-`) ? upper.slice(country.length + 1) : upper;
  if (listed) {
    if (Object.hasOwn(listed, code)) return `${country}-${code}`;
    const folded = foldName(written);
    const byName = Object.entries(listed).find(([, name]) => foldName(name) === folded);
    return byName ? `${country}-${byName[0]}` : undefined;
  }
  return /^[A-Z0-9]{1,3}$/.test(code) ? `${country}-${code}` : undefined;
}

/**
 * Whether a place id names a place: a country the advert schema knows, a subdivision of one (from
 * the lists above for US, CA, MX; by shape elsewhere), or a city place the rules data has.
 */
export function isKnownPlace(id: string, cityPlaces: ReadonlySet<string>): boolean {
  if (id.includes('/')) return cityPlaces.has(id);
  const [country, sub, more] = id.split('-');
  if (more !== undefined || country === undefined || !isCountry(country)) return false;
  if (sub === undefined) return true;
  const listed = listedIn(country);
  return listed ? Object.hasOwn(listed, sub) : /^[A-Z0-9]{1,3}$/.test(sub);
}

/** The place a place id is inside (`US-NY/new-york-city` -> `US-NY` -> `US`), or undefined for a country. */
export function parentOf(id: string): string | undefined {
  const slash = id.indexOf('/');
  if (slash >= 0) return id.slice(0, slash);
  const dash = id.indexOf('-');
  return dash >= 0 ? id.slice(0, dash) : undefined;
}

/** `place` is `outer` or inside it. */
export function within(place: string, outer: string): boolean {
  for (let p: string | undefined = place; p !== undefined; p = parentOf(p)) if (p === outer) return true;
  return false;
}
