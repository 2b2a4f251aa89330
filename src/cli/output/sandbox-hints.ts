/**
 * Where a new user meets application ids: the service hands them out only through its callback,
 * which the embedded sandbox has no way to call, so after `jobs --sandbox stats` the sandbox's
 * newest application ids for those adverts are listed on stderr with a command to try.
 */
import type { Context } from '../context.js';
import { sanitize } from '../../core/util/sanitize.js';
import { EMBEDDED_TOKEN, sandboxStatePath } from '../../core/sandbox/embedded.js';
import { loadStore } from '../../core/sandbox/data-file.js';
import { ownerOf } from '../../core/sandbox/store.js';
import type { StoredAdvert, StoredApplication } from '../../core/sandbox/types.js';

/** Ids listed per advert. */
const SHOWN = 3;

/** The command suggested for an id, in one place so the wording is easy to change. */
export function tryEventCommand(applicationId: string, name = 'jobs'): string {
  return `${name} --sandbox event ${applicationId} recruiter_view`;
}

/** The newest applications; those not yet viewed first, since a first view is what counts. */
export function newestApplications(advert: StoredAdvert, count = SHOWN): StoredApplication[] {
  const newest = advert.applications.slice(-count).reverse();
  return [...newest.filter((a) => !a.viewed), ...newest.filter((a) => a.viewed)];
}

/** Lists application ids of the embedded sandbox's adverts `references` (those it holds). */
export function writeApplicationHints(ctx: Context, references: readonly string[]): void {
  // Snapshot and journal lines are each written whole: they can be read without the lock.
  const store = loadStore(sandboxStatePath(ctx.env));
  const owner = ownerOf(EMBEDDED_TOKEN);
  const rows: [string, StoredApplication[]][] = [];
  for (const reference of references) {
    const advert = store.find(owner, reference);
    const applications = advert ? newestApplications(advert) : [];
    if (applications.length > 0) rows.push([sanitize(reference), applications]);
  }
  if (rows.length === 0) return;
  const all = rows.flatMap(([, applications]) => applications);
  const suggested = all.find((a) => !a.viewed) ?? all[0]!;
  const width = rows.reduce((most, [reference]) => Math.max(most, reference.length), 0);
  const lines = ['', 'Newest applications (the sandbox simulates candidates):'];
  for (const [reference, applications] of rows) {
    lines.push(`  ${reference.padEnd(width)}  ${applications.map((a) => (a.viewed ? `${a.id} (viewed)` : a.id)).join('  ')}`);
  }
  lines.push(`try: ${tryEventCommand(suggested.id, ctx.name)}`);
  ctx.io.stderr.write(`${lines.join('\n')}\n`);
}
