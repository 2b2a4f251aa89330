/**
 * What this tool has published, per service: each advert's reference and title, kept after every
 * successful create, update or delete (by publish, create, sync and delete), so `jobs stats --all`
 * and `jobs report` know the adverts with no flag and name them by title. The service cannot list
 * adverts, so this record is how the tool knows them; a sync state (which only sync writes, in the
 * synced folder) stays a second source.
 *
 * One small JSON file per service in the user's state folder:
 * `$XDG_STATE_HOME/jobs/published/<service URL, URL-encoded>.json`; the embedded sandbox's beside
 * its own state (`sandbox-published.json`), so `jobs sandbox --reset` clears it with the rest. A
 * deleted advert is kept as deleted (with the time), so the report can say so instead of showing
 * its last numbers as live; publishing it again makes it live.
 *
 * All file I/O is in this module, and every write goes through writePublished (under the file's
 * lock, replaced atomically), so two runs at once keep each other's adverts.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { homeDir } from '../config/paths.js';
import { lockPathFor, withLock } from '../storage/lock.js';
import { removeOwnFile, replaceFile } from '../storage/replace.js';
import { canonicalServiceKey } from '../config/service-key.js';
import type { AdvertDates } from '../adverts/dates.js';

type Env = Record<string, string | undefined>;

export interface PublishedAdvert {
  /** The advert's title when it was last sent (absent when unknown). */
  title?: string;
  /** When it was last created or updated (ISO time). */
  published_at: string;
  /** When it was first published (ISO time), kept over updates: a JobPosting's datePosted. Absent in records written before it was kept. */
  first_published_at?: string;
  /** When it was deleted (ISO time); absent while it is live. */
  deleted_at?: string;
  /** Its `jobs:` dates when it was last sent or synced (YYYY-MM-DD, UTC; see adverts/dates.ts): stats and the report count days left from them. */
  opens?: string;
  closes?: string;
  /** For an advert made from a `locations:` list: its file's reference, which the adverts of its places share. */
  group?: string;
  /** The absolute path of the file it was last sent from in full (absent for stdin, or when unknown): see owners.ts. */
  file?: string;
}

/** A successful change to record: a create or update (with the title sent), or a delete. */
export type PublishedChange =
  | {
      reference: string;
      title?: string | undefined;
      deleted?: false;
      dates?: AdvertDates | undefined;
      datesOnly?: false;
      group?: string | undefined;
      file?: string | undefined;
    }
  /** An advert synced unchanged: only its dates are brought up to date, when it is recorded and live. */
  | { reference: string; dates: AdvertDates | undefined; datesOnly: true; deleted?: false }
  /** onlyIfRecorded: a 404 says an advert is gone, but for a reference never recorded it is a typo, not a deletion. */
  | { reference: string; deleted: true; onlyIfRecorded?: boolean; datesOnly?: false };

const VERSION = 1;
/** Titles are kept short: the record names adverts, it does not copy them. */
export const MAX_TITLE = 200;

function stateDir(env: Env): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'jobs');
  return join(homeDir(env), '.local', 'state', 'jobs');
}

/** The record's file for a service key (`sandbox`, or a base URL in any spelling). */
export function publishedRecordFile(env: Env, service: string): string {
  const key = canonicalServiceKey(service);
  if (key === 'sandbox') return join(stateDir(env), 'sandbox-published.json');
  return join(stateDir(env), 'published', `${encodeURIComponent(key)}.json`);
}

/**
 * The service's record, reference -> advert (deleted ones included). A missing file is an empty
 * record; a damaged one is too (it only saves typing references), with `damaged` set to say so.
 */
export function readPublished(env: Env, service: string): { adverts: Map<string, PublishedAdvert>; file: string; damaged?: string } {
  const file = publishedRecordFile(env, service);
  try {
    return { adverts: parse(readFileSync(file, 'utf8')), file };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { adverts: new Map(), file };
    return { adverts: new Map(), file, damaged: code ?? (error as Error).message };
  }
}

/** The references of the live (not deleted) adverts, sorted. */
export function liveReferences(adverts: ReadonlyMap<string, PublishedAdvert>): string[] {
  return [...adverts].flatMap(([reference, a]) => (a.deleted_at === undefined ? [reference] : [])).sort();
}

/** Adds successful changes to the service's record (one locked read, merge and atomic replace). */
export async function writePublished(env: Env, service: string, changes: readonly PublishedChange[], now = Date.now()): Promise<void> {
  if (changes.length === 0) return;
  const file = publishedRecordFile(env, service);
  const at = new Date(now).toISOString();
  await withLock(
    file,
    () => {
      let adverts: Map<string, PublishedAdvert>;
      try {
        adverts = parse(readFileSync(file, 'utf8'));
      } catch {
        // Missing or damaged: what this run knows is written; the rest comes back as adverts are sent.
        adverts = new Map();
      }
      let changed = false;
      for (const c of changes) {
        const before = adverts.get(c.reference);
        if (c.datesOnly) {
          if (!before || before.deleted_at !== undefined || (before.opens === c.dates?.opens && before.closes === c.dates?.closes)) continue;
          const { opens: _o, closes: _c, ...rest } = before;
          adverts.set(c.reference, { ...rest, ...datesOf(c.dates) });
          changed = true;
          continue;
        }
        changed = true;
        if (c.deleted) {
          if (c.onlyIfRecorded && !before) continue;
          adverts.set(c.reference, {
            ...(before?.title === undefined ? {} : { title: before.title }),
            published_at: before?.published_at ?? at,
            deleted_at: at,
            ...(before?.group === undefined ? {} : { group: before.group }),
            ...(before?.file === undefined ? {} : { file: before.file }),
          });
        } else {
          const title = typeof c.title === 'string' ? c.title.slice(0, MAX_TITLE) : before?.title;
          // A partial update does not say: the group stays what the last full send said.
          const group = 'group' in c ? c.group : before?.group;
          // Published again after a deletion: a new posting, first published now.
          const first = before && before.deleted_at === undefined ? (before.first_published_at ?? before.published_at) : at;
          const file = 'file' in c ? c.file : before?.file;
          adverts.set(c.reference, {
            ...(title === undefined ? {} : { title }),
            published_at: at,
            first_published_at: first,
            ...datesOf(c.dates),
            ...(group === undefined ? {} : { group }),
            ...(file === undefined ? {} : { file }),
          });
        }
      }
      // Only dates that were already as recorded: the file is left as it is.
      if (!changed) return;
      // Durable: the record is how stats --all and the report know what was published.
      replaceFile(file, serialise(canonicalServiceKey(service), adverts), { durable: true, mode: 0o600, folderMode: 0o700 });
    },
    { what: 'the record of published adverts' },
  );
}

const datesOf = (dates: AdvertDates | undefined): AdvertDates => ({
  ...(dates?.opens === undefined ? {} : { opens: dates.opens }),
  ...(dates?.closes === undefined ? {} : { closes: dates.closes }),
});

/** Forgets everything recorded for the service (`jobs sandbox --reset`); true when there was a record. */
export function forgetPublished(env: Env, service: string): boolean {
  const file = publishedRecordFile(env, service);
  let had = true;
  try {
    readFileSync(file);
  } catch {
    had = false;
  }
  removeOwnFile(file);
  removeOwnFile(lockPathFor(file));
  return had;
}

/** One advert per line, sorted by reference: small diffs, and readable by a person. */
function serialise(service: string, adverts: ReadonlyMap<string, PublishedAdvert>): string {
  const lines = [...adverts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([reference, a]) => `    ${JSON.stringify(reference)}: ${JSON.stringify(a)}`);
  return `{\n  "version": ${VERSION},\n  "service": ${JSON.stringify(service)},\n  "adverts": {\n${lines.join(',\n')}${lines.length ? '\n' : ''}  }\n}\n`;
}

/** References are users' text: kept in a Map, so `__proto__` is an advert like any other. */
function parse(text: string): Map<string, PublishedAdvert> {
  const data = JSON.parse(text) as { version?: unknown; adverts?: unknown };
  if (data.version !== VERSION || typeof data.adverts !== 'object' || data.adverts === null) throw new Error(`not a version ${VERSION} record`);
  const adverts = new Map<string, PublishedAdvert>();
  for (const [reference, value] of Object.entries(data.adverts as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null) continue;
    const v = value as Record<string, unknown>;
    if (typeof v.published_at !== 'string') continue;
    const advert: PublishedAdvert = { published_at: v.published_at };
    if (typeof v.title === 'string') advert.title = v.title;
    if (typeof v.first_published_at === 'string') advert.first_published_at = v.first_published_at;
    if (typeof v.deleted_at === 'string') advert.deleted_at = v.deleted_at;
    if (typeof v.opens === 'string') advert.opens = v.opens;
    if (typeof v.closes === 'string') advert.closes = v.closes;
    if (typeof v.group === 'string') advert.group = v.group;
    if (typeof v.file === 'string') advert.file = v.file;
    adverts.set(reference, advert);
  }
  return adverts;
}
