/**
 * A JobPosting checked as Google checks it (its structured data guidelines for job postings): the
 * properties Search Console calls critical are errors (nothing is exported), the recommended ones
 * warnings. Each issue names the advert field that feeds the property, so a finding points at the
 * line to change. A pay that only fills the field (0 to 0, 1, 999999999, min above max) is called
 * out rather than exported.
 */
import { hasText, showsText } from './description.js';
import type { Pay } from './facts.js';
import type { JobPosting } from './job-posting.js';
import { sanitize } from '../util/sanitize.js';

export interface PostingIssue {
  severity: 'error' | 'warning';
  /** The JobPosting property. */
  property: string;
  /** The advert field (dotted) to point at and to change. */
  path: string;
  /** Identifier, as the service's messages are written: `required:description`. */
  message: string;
  text: string;
}

/** A place a remote job may be done from: ISO 3166-1 (CA), ISO 3166-2 (US-CO), or a city place (US-NY/new-york-city). */
const PLACE = /^[A-Z]{2}(-[A-Z0-9]{1,3})?(\/[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*)?$/u;

/** ISO 8601 as Google reads datePosted: a date, or a date and time with a zone. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;

export function checkPosting(
  posting: JobPosting,
  options: { employmentMapped: boolean; pay?: Pay | undefined; placeholder?: string | undefined; remoteFrom?: readonly string[] | undefined },
): PostingIssue[] {
  const issues: PostingIssue[] = [];
  const required = (property: string, path: string, text: string) =>
    issues.push({ severity: 'error', property, path, message: `required:${property}`, text: `Google requires ${property}: ${text}` });
  const recommended = (property: string, path: string, text: string) =>
    issues.push({ severity: 'warning', property, path, message: `recommended:${property}`, text: `Google recommends ${property}: ${text}` });

  if (typeof posting.title !== 'string' || !showsText(posting.title)) required('title', 'title', 'the title shows no text; write the job title');
  if (typeof posting.description !== 'string' || !hasText(posting.description))
    required('description', 'job_description', 'the job description shows no text once rendered; write what the job is');
  const org = posting.hiringOrganization as { name?: unknown } | undefined;
  if (typeof org?.name !== 'string' || !showsText(org.name))
    required('hiringOrganization', 'organization_name', "the organization_name shows no text; write the company's name");
  if (typeof posting.datePosted !== 'string' || !ISO_8601.test(posting.datePosted) || Number.isNaN(Date.parse(posting.datePosted)))
    required('datePosted', 'jobs.opens', `${JSON.stringify(posting.datePosted)} is not an ISO 8601 date; write jobs.opens as YYYY-MM-DD`);
  if (posting.jobLocationType === 'TELECOMMUTE') {
    const places = posting.applicantLocationRequirements;
    if (!Array.isArray(places) || places.length === 0)
      required(
        'applicantLocationRequirements',
        'jobs.remote.from',
        'a remote job names where it may be done from; list countries or states in jobs.remote.from (US, US-CO)',
      );
    // Each place is named by its code: anything else would be a place with no name Google can read.
    for (const place of options.remoteFrom ?? []) {
      if (PLACE.test(place)) continue;
      const upper = place.replace(/^[^/]*/, (region) => region.trim().toUpperCase());
      required(
        'applicantLocationRequirements',
        'jobs.remote.from',
        `${JSON.stringify(sanitize(place))} in jobs.remote.from is not a place code; ${PLACE.test(upper) ? `write ${upper}` : 'write a country (CA), a subdivision (US-CO) or a city place (US-NY/new-york-city)'}`,
      );
    }
  } else {
    const address = (posting.jobLocation as { address?: Record<string, unknown> } | undefined)?.address;
    if (!address) required('jobLocation', 'location', 'write the location (country and city), or jobs.remote for a remote job');
    else if (typeof address.addressCountry !== 'string') required('jobLocation', 'location.country', 'write the location country');
  }

  if (options.placeholder !== undefined)
    issues.push({
      severity: 'warning',
      property: 'baseSalary',
      path: 'jobs.pay',
      message: 'placeholder_pay',
      text: `jobs.pay looks like a placeholder (${options.placeholder}), not a pay: it is left out of baseSalary; write the real range, or remove jobs.pay`,
    });
  else if (posting.baseSalary === undefined) recommended('baseSalary', 'jobs', 'add jobs.pay: { min, max, currency, per } to show the pay in search');
  if (posting.validThrough === undefined) recommended('validThrough', 'jobs', 'add jobs.closes: the last day the job is open');
  if (posting.employmentType === undefined && options.employmentMapped)
    recommended(
      'employmentType',
      'contract_id',
      'this contract has no employment type in the config; add it to export.employment_type (FULL_TIME, PART_TIME, ...)',
    );
  return issues;
}

/** Why a pay is a placeholder rather than a pay, or undefined when it looks real. */
export function placeholderPay(pay: Pay): string | undefined {
  // ISO 4217 keeps XXX for "no currency" and XTS for tests: a form filled in, not a pay.
  if (pay.currency === 'XXX') return 'currency XXX, the code for no currency';
  if (pay.currency === 'XTS') return 'currency XTS, the code for tests';
  const values = pay.max === undefined ? [pay.min] : [pay.min, pay.max];
  if (values.every((v) => v === 0)) return pay.max === undefined ? 'from 0' : '0 to 0';
  if (values.some((v) => v < 0)) return 'a negative amount';
  if (pay.max !== undefined && pay.min > pay.max) return `min ${pay.min} above max ${pay.max}`;
  if (pay.max === 0) return 'max 0';
  // 1, 99999999: typed to get past a required field (all nines: a real pay is rarely one).
  const filler = values.find((v) => v === 1 || /^9{8,}$/.test(String(v)) || v >= 1e9);
  if (filler !== undefined) return `${filler}`;
  return undefined;
}
