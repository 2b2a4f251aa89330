/**
 * A sync's plan from the digests of its checked folder (bulk/check-paths.ts) and what the state
 * recorded: the no-op shortcut (unchangedPlan) and the full plan (planFolder).
 */
import type { CheckedDigests, FileAdvertDigest } from '../bulk/check-paths.js';
import { runPool } from '../util/pool.js';
import { countActions, Planner, type AdvertDigest, type Plan, type PlannedChange } from './plan.js';
import { AdvertSetHash } from './state-check.js';
import type { AdvertRecord } from './state.js';

export interface DigestPlanOptions {
  prune: boolean;
  force: boolean;
  /** The file as the state records it (relative to the synced folder), from the file as shown. */
  fileOf: (shown: string) => string;
  /** The field hashes of an update's advert (read again: digests keep none). */
  fieldsOf: (change: PlannedChange) => Promise<Record<string, string>>;
  /** The content hash of an advert whose digest has none, and whose text is not its record's: read again. */
  hashOf: (digest: AdvertDigest) => Promise<string>;
  /** Files read at once for updates' fields. */
  concurrency: number;
}

/**
 * The plan of a folder whose adverts sum (AdvertSetHash of reference, file, document, text hash)
 * to `summary`, the state's sum of its records: every advert unchanged and where it was. Undefined
 * when the sums differ, or an advert has no text hash (a file read in parts).
 */
export function unchangedPlan(folder: CheckedDigests, fileOf: (shown: string) => string, summary: string): Plan | undefined {
  const sum = new AdvertSetHash();
  const changes: PlannedChange[] = [];
  for (const advert of folder.adverts) {
    if (advert.textHash === '') return undefined;
    const file = fileOf(folder.files[advert.file]!.display);
    sum.add(advert.reference, file, advert.document, advert.textHash);
    changes.push({ action: 'unchanged', reference: advert.reference, file, ...(advert.group === undefined ? {} : { group: advert.group }) });
  }
  if (sum.toString() !== summary) return undefined;
  return { changes, counts: countActions(changes) };
}

/** The plan of a checked folder against what the state recorded. */
export async function planFolder(folder: CheckedDigests, recorded: ReadonlyMap<string, AdvertRecord>, options: DigestPlanOptions): Promise<Plan> {
  const planner = new Planner(recorded, { prune: options.prune, force: options.force, keepAdverts: false });
  const planned = (advert: FileAdvertDigest): AdvertDigest => {
    const source = folder.files[advert.file]!.display;
    return {
      source,
      file: options.fileOf(source),
      reference: advert.reference,
      document: advert.document,
      hash: advert.hash,
      textHash: advert.textHash,
      ...(advert.group === undefined ? {} : { group: advert.group }),
    };
  };
  // Left out for its text: when that is not the text of this advert's record (new, or edited), its
  // payload is hashed after all, read again; then every advert is planned in file order.
  const unhashed = new Map<FileAdvertDigest, AdvertDigest>();
  for (const advert of folder.adverts) {
    if (advert.hash === '' && !planner.knowsText(advert.reference, advert.document, advert.textHash)) unhashed.set(advert, planned(advert));
  }
  await runPool([...unhashed.values()], options.concurrency, async (digest) => void (digest.hash = await options.hashOf(digest)));
  for (const advert of folder.adverts) planner.add(unhashed.get(advert) ?? planned(advert));
  // Only the updates name their fields: a folder where nothing changed is not read again.
  await runPool(planner.unfilled(), options.concurrency, async (change) => planner.fill(change, await options.fieldsOf(change)));
  return planner.finish();
}
