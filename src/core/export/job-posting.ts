/**
 * One advert (one place of a `locations:` advert) as a schema.org JobPosting, field by field as
 * docs/export.md describes. Plain data in, a plain object out: the checks (google-checks.ts) read
 * the same object, and JSON-LD is its JSON.
 */
import { dateOf, dayOf } from '../adverts/dates.js';
import type { AdvertDates } from '../adverts/dates.js';
import { descriptionHtml } from './description.js';
import type { AdvertFacts, Pay } from './facts.js';

/** schema.org's employmentType values that Google reads. */
export const EMPLOYMENT_TYPES = ['FULL_TIME', 'PART_TIME', 'CONTRACTOR', 'TEMPORARY', 'INTERN', 'VOLUNTEER', 'PER_DIEM', 'OTHER'] as const;

const UNIT_TEXT = { hour: 'HOUR', day: 'DAY', week: 'WEEK', month: 'MONTH', year: 'YEAR' } as const;

export interface PostingInput {
  reference: string;
  /** The advert as it would be sent (defaults and constants applied). */
  payload: Record<string, unknown>;
  facts: AdvertFacts;
  dates?: AdvertDates | undefined;
  /** The description is Markdown (a Markdown advert's body). */
  markdown: boolean;
  /** First published (ISO date or time), from the record of published adverts. */
  firstPublished?: string | undefined;
  /** Today's UTC day number: datePosted when nothing else says. */
  today: number;
  /** contract_id -> employmentType (from the config's export.employment_type). */
  employmentTypes: ReadonlyMap<number, string>;
  /** Pay that must not be exported (a placeholder): left out of baseSalary. */
  withoutPay?: boolean;
}

export type JobPosting = Record<string, unknown> & { '@context': 'https://schema.org'; '@type': 'JobPosting' };

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** Where datePosted came from: the record, jobs.opens, or today. */
export function datePosted(input: Pick<PostingInput, 'firstPublished' | 'dates' | 'today'>): string {
  // The record is the tool's own file: a date there that is no calendar date is damage, not a date.
  if (input.firstPublished !== undefined && dayOf(input.firstPublished.slice(0, 10)) !== undefined) return input.firstPublished.slice(0, 10);
  return input.dates?.opens ?? dateOf(input.today);
}

export function jobPosting(input: PostingInput): JobPosting {
  const a = input.payload;
  const organization = text(a.organization_name);
  const description = typeof a.job_description === 'string' ? descriptionHtml(a.job_description, input.markdown) : undefined;
  const posting: JobPosting = { '@context': 'https://schema.org', '@type': 'JobPosting' };
  const title = text(a.title);
  if (title !== undefined) posting.title = title;
  if (description !== undefined) posting.description = description;
  posting.identifier = { '@type': 'PropertyValue', ...(organization === undefined ? {} : { name: organization }), value: input.reference };
  posting.datePosted = datePosted(input);
  if (input.dates?.closes !== undefined) posting.validThrough = `${input.dates.closes}T23:59:59Z`;
  const employment = typeof a.contract_id === 'number' ? input.employmentTypes.get(a.contract_id) : undefined;
  if (employment !== undefined) posting.employmentType = employment;
  if (organization !== undefined) posting.hiringOrganization = { '@type': 'Organization', name: organization };
  if (input.facts.remote) {
    posting.jobLocationType = 'TELECOMMUTE';
    posting.applicantLocationRequirements = input.facts.remote.from.map(applicantLocation);
  } else {
    const address = postalAddress(a.location);
    if (address) posting.jobLocation = { '@type': 'Place', address };
  }
  if (input.facts.pay && !input.withoutPay) posting.baseSalary = baseSalary(input.facts.pay);
  return posting;
}

function postalAddress(location: unknown): Record<string, string> | undefined {
  if (typeof location !== 'object' || location === null) return undefined;
  const l = location as Record<string, unknown>;
  const country = text(l.country);
  const city = text(l.city);
  const state = text(l.state);
  if (country === undefined && city === undefined) return undefined;
  return {
    '@type': 'PostalAddress',
    ...(city === undefined ? {} : { addressLocality: city }),
    ...(state === undefined ? {} : { addressRegion: state }),
    ...(country === undefined ? {} : { addressCountry: country }),
  };
}

/**
 * A place remote work may be done from: a country (`CA`), a subdivision (`US-CO`: a State, as
 * Google's examples name them), or a city place (`US-NY/new-york-city`: the city, in its state).
 */
function applicantLocation(place: string): Record<string, unknown> {
  const [region, city] = place.split('/', 2);
  if (city !== undefined) {
    const name = city
      .split('-')
      .filter((w) => w !== '')
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join(' ');
    return { '@type': 'City', name, containedInPlace: { '@type': 'State', name: region } };
  }
  return { '@type': region!.includes('-') ? 'State' : 'Country', name: region };
}

function baseSalary(pay: Pay): Record<string, unknown> {
  const unitText = UNIT_TEXT[pay.per];
  const value =
    pay.max === pay.min
      ? { '@type': 'QuantitativeValue', value: pay.min, unitText }
      : { '@type': 'QuantitativeValue', minValue: pay.min, ...(pay.max === undefined ? {} : { maxValue: pay.max }), unitText };
  return { '@type': 'MonetaryAmount', currency: pay.currency, value };
}
