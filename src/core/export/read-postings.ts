/**
 * The adverts of files and folders as JobPostings: read and checked by the bulk check that
 * validate, publish and sync share (an invalid advert is an error as in validate), each valid
 * advert kept whole and turned into its posting as its file comes out, then checked as Google
 * checks (google-checks.ts). Any error stops the run before anything is written (InvalidAdvertsError,
 * exit 3). An advert that is not open today (closed, or not yet opened) is left out, with a warning.
 */
import { findAdvertFiles } from '../adverts/files.js';
import { dateStatus, type AdvertDates } from '../adverts/dates.js';
import { isMarkdownName } from '../adverts/markdown.js';
import { checkFiles } from '../bulk/run-files.js';
import type { KeptAdvert } from '../bulk/check-file.js';
import { CancelledError } from '../errors/failures.js';
import { findingFromProblem, sortFindings, type Finding } from '../errors/findings.js';
import type { PublishedAdvert } from '../published/record.js';
import type { AdvertSettings } from '../validation/check.js';
import { InvalidAdvertsError, problemParts } from '../validation/invalid-adverts.js';
import { plural } from '../util/plural.js';
import { advertFacts, type AdvertFacts } from './facts.js';
import { checkPosting, placeholderPay } from './google-checks.js';
import { jobPosting, type JobPosting } from './job-posting.js';

export interface ExportSettings {
  /** The config's export.employment_type: contract name or id -> employmentType. */
  employmentType?: Readonly<Record<string, string>> | undefined;
}

export interface PostingsInputs {
  paths: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  settings: AdvertSettings;
  exportSettings: ExportSettings;
  /** The record of published adverts of the service in use (datePosted, lastmod). */
  published: ReadonlyMap<string, PublishedAdvert>;
  /** Today's UTC day number. */
  today: number;
  /** Keep adverts that are not open today (a preview); by default they are left out. */
  everyDay?: boolean;
  signal?: AbortSignal;
}

/** One exported advert (one place of a `locations:` advert). */
export interface ExportItem {
  reference: string;
  file: string;
  line: number;
  group?: string;
  posting: JobPosting;
  payload: Record<string, unknown>;
  facts: AdvertFacts;
  dates?: AdvertDates;
  /** The pay is a placeholder: not shown as pay. */
  placeholderPay: boolean;
  /** When it was last published (ISO time), from the record: a sitemap's lastmod. */
  lastPublished?: string;
}

export interface Postings {
  items: ExportItem[];
  /** Adverts left out: not open today. */
  left: { reference: string; file: string; line: number; why: 'closed' | 'not_open'; date: string }[];
  /** Findings that export nothing less (missing recommended properties, placeholder pay, left out). */
  warnings: Finding[];
  /** Warnings about the run as a whole (the employment type mapping). */
  notes: string[];
  files: number;
  adverts: number;
}

/** The fields whose lines a finding may point at. */
const AT = [
  ['title'],
  ['job_description'],
  ['organization_name'],
  ['location'],
  ['location', 'country'],
  ['contract_id'],
  ['jobs'],
  ['jobs', 'opens'],
  ['jobs', 'closes'],
  ['jobs', 'pay'],
  ['jobs', 'remote'],
  ['jobs', 'remote', 'from'],
];

// Export reads files and folders: `-` (stdin) is never among them.
const noStdin = async function* (): AsyncGenerator<string> {};

export async function readPostings(inputs: PostingsInputs): Promise<Postings> {
  const { map: employmentTypes, notes } = employmentTypeMap(inputs.exportSettings, inputs.settings);
  const mapped = inputs.exportSettings.employmentType !== undefined && Object.keys(inputs.exportSettings.employmentType).length > 0;
  if (!mapped)
    notes.push(
      'employmentType is left out of every posting: the service does not publish its contract constants, so say which contract is which in the config, e.g. export: { employment_type: { permanent: FULL_TIME } }',
    );
  const found = await findAdvertFiles(inputs.paths, inputs.cwd);
  const out: Postings = { items: [], left: [], warnings: [], notes, files: 0, adverts: 0 };
  const errors: Finding[] = [];
  const checked = await checkFiles(
    found.files,
    noStdin,
    { settings: inputs.settings, mode: 'create', options: {}, records: false, keep: { at: AT } },
    {
      env: inputs.env,
      ...(inputs.signal ? { signal: inputs.signal } : {}),
      onFile: (_index, c) => {
        for (const kept of c.kept ?? []) exportOne(kept, inputs, employmentTypes, mapped, out, errors);
      },
    },
  ).catch((error: unknown) => {
    throw error instanceof CancelledError ? new CancelledError(`${error.message}; nothing was exported`) : error;
  });
  out.files = checked.files;
  out.adverts = checked.adverts;
  const problems = found.problems.concat(checked.problems);
  const findings = sortFindings(found.problems.map(findingFromProblem).concat(checked.findings, errors));
  if (findings.length > 0) {
    const { files, duplicates } = problemParts(problems);
    const invalid = checked.invalid + new Set(errors.map((f) => `${f.file}\u0000${f.reference}`)).size;
    const counts = [
      ...(checked.adverts > 0
        ? [`${invalid} of ${plural(checked.adverts, 'advert')} invalid${duplicates > 0 ? ` (${plural(duplicates, 'duplicate reference')})` : ''}`]
        : []),
      ...files,
    ];
    throw new InvalidAdvertsError(`${plural(findings.length, 'error')} in the advert files (${counts.join(', ')}); nothing was exported`, findings);
  }
  // The places of a `locations:` advert share its fields: a warning about one of them is said once.
  const seen = new Set<string>();
  out.warnings = sortFindings(out.warnings).filter((f) => {
    const key = `${f.file}\u0000${f.line}\u0000${f.column}\u0000${f.path}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return out;
}

function exportOne(
  kept: KeptAdvert,
  inputs: PostingsInputs,
  employmentTypes: ReadonlyMap<number, string>,
  mapped: boolean,
  out: Postings,
  errors: Finding[],
): void {
  const finding = (path: string, message: string, text: string, rule: string): Finding => {
    const at = kept.at[path] ?? { line: kept.line, column: kept.column };
    return { kind: 'field', file: kept.file, line: at.line, column: at.column, path, message, text, rule, reference: kept.reference };
  };
  const status = dateStatus(kept.dates, inputs.today);
  if (status !== 'open' && !inputs.everyDay) {
    const date = status === 'closed' ? kept.dates!.closes! : kept.dates!.opens!;
    out.left.push({ reference: kept.reference, file: kept.file, line: kept.line, why: status === 'closed' ? 'closed' : 'not_open', date });
    out.warnings.push({
      ...finding(
        status === 'closed' ? 'jobs.closes' : 'jobs.opens',
        status === 'closed' ? 'closed' : 'not_open',
        status === 'closed'
          ? `closed on ${date}: not exported (an expired job must not stay marked up; its page is gone from the next export site)`
          : `opens on ${date}: not exported before then`,
        status === 'closed' ? 'closed' : 'not_open',
      ),
      severity: 'warning',
    });
    return;
  }
  const facts = advertFacts(kept.jobs);
  const placeholder = facts.pay ? placeholderPay(facts.pay) : undefined;
  const record = inputs.published.get(kept.reference);
  const live = record && record.deleted_at === undefined ? record : undefined;
  const posting = jobPosting({
    reference: kept.reference,
    payload: kept.payload,
    facts,
    dates: kept.dates,
    markdown: isMarkdownName(kept.file),
    firstPublished: live ? (live.first_published_at ?? live.published_at) : undefined,
    today: inputs.today,
    employmentTypes,
    withoutPay: placeholder !== undefined,
  });
  let failed = false;
  for (const issue of checkPosting(posting, { employmentMapped: mapped, pay: facts.pay, placeholder, remoteFrom: facts.remote?.from })) {
    const f = finding(issue.path, issue.message, issue.text, issue.message.split(':')[0]!);
    if (issue.severity === 'error') {
      errors.push(f);
      failed = true;
    } else out.warnings.push({ ...f, severity: 'warning' });
  }
  if (failed) return;
  out.items.push({
    reference: kept.reference,
    file: kept.file,
    line: kept.line,
    ...(kept.group === undefined ? {} : { group: kept.group }),
    posting,
    payload: kept.payload,
    facts,
    ...(kept.dates ? { dates: kept.dates } : {}),
    placeholderPay: placeholder !== undefined,
    ...(live && isRecordTime(live.published_at) ? { lastPublished: live.published_at } : {}),
  });
}

/**
 * A time in the record as the tool writes it (ISO 8601, UTC): a sitemap's lastmod must be a W3C
 * datetime, so a damaged or hand-edited one is no lastmod (as a damaged date is no datePosted).
 */
function isRecordTime(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) && !Number.isNaN(Date.parse(value));
}

/** contract_id -> employmentType, from the config's names (constants.contract) or ids. */
function employmentTypeMap(exportSettings: ExportSettings, settings: AdvertSettings): { map: Map<number, string>; notes: string[] } {
  const map = new Map<number, string>();
  const notes: string[] = [];
  const contracts = settings.constants.contract ?? {};
  for (const [key, type] of Object.entries(exportSettings.employmentType ?? {})) {
    const id = /^\d+$/.test(key) ? Number(key) : Object.hasOwn(contracts, key) ? contracts[key] : undefined;
    if (typeof id !== 'number') {
      notes.push(`export.employment_type.${key}: no contract of that name in constants.contract; write a name from constants.contract, or the contract_id`);
      continue;
    }
    map.set(id, type);
  }
  return { map, notes };
}
