/**
 * Who owns a reference: the check `publish` and `sync` make before sending, as kubectl's field
 * managers and Terraform's state do. `publish` is an upsert, so an advert whose reference another
 * file published (two adverts from one template, a reference copied with the file) would replace
 * that advert on the service without a word.
 *
 * An advert is flagged when the record of published adverts (record.ts) says its reference is live
 * and was last sent in full from another file with another title. Decided:
 * - the same file, whatever its title: an edited advert (the file owns the reference);
 * - another file with the same title: the advert was renamed or moved;
 * - a deleted advert, or one recorded without a file or title (sent from stdin, by `update`, or by
 *   a version of the tool that did not record files): nothing to compare, so nothing is said;
 * - an advert read from stdin has no file: it is "another file" when the title differs too.
 * The record is per service and per user: adverts sent by someone else are not in it.
 */
import { resolve } from 'node:path';
import { MAX_TITLE, type PublishedAdvert } from './record.js';
import { STDIN_NAME } from '../util/stdin-name.js';

/** An advert about to be sent: its reference and its file as the user named it. */
export interface AdvertToOwn {
  reference: string;
  source: string;
}

export interface OwnerConflict {
  reference: string;
  /** The file about to send it (as the user named it), and its title. */
  source: string;
  title: string | undefined;
  /** The file that last sent it (absolute) and the title it had. */
  recordedFile: string;
  recordedTitle: string;
}

/** The absolute path the record keeps for an advert's file as named; undefined for stdin. */
export function recordedFileOf(cwd: string, source: string | undefined): string | undefined {
  return source === undefined || source === STDIN_NAME ? undefined : resolve(cwd, source);
}

/**
 * The adverts among `sending` that would replace an advert published from another file with
 * another title. Only the suspects (live, recorded from another file) have their title read, with
 * `titleOf`: a run of thousands of adverts reads none again.
 */
export async function ownerConflicts<T extends AdvertToOwn>(
  recorded: ReadonlyMap<string, PublishedAdvert>,
  sending: Iterable<T>,
  cwd: string,
  titleOf: (advert: T) => Promise<string | undefined>,
): Promise<OwnerConflict[]> {
  const conflicts: OwnerConflict[] = [];
  for (const advert of sending) {
    const before = recorded.get(advert.reference);
    if (before?.file === undefined || before.title === undefined || before.deleted_at !== undefined) continue;
    if (recordedFileOf(cwd, advert.source) === before.file) continue;
    const title = await titleOf(advert);
    // The record keeps titles cut short: a long title is compared as kept.
    if (title?.slice(0, MAX_TITLE) === before.title) continue;
    conflicts.push({ reference: advert.reference, source: advert.source, title, recordedFile: before.file, recordedTitle: before.title });
  }
  return conflicts;
}
