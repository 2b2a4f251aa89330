/**
 * Reads an advert again when it is about to be sent, so that a sync holds a payload only while it is
 * being sent. The advert must hash as planned: a file edited since the plan is not sent (it was
 * checked in another state), and the run says to sync again.
 */
import { normalReference } from '../adverts/reference.js';
import { loadAdverts } from '../adverts/load.js';
import { InvalidInputError } from '../errors/failures.js';
import type { AdvertSettings } from '../validation/check.js';
import { checkAdvert, isValid, type CheckedAdvert } from '../validation/check.js';
import type { ValidateOptions } from '../validation/validate.js';
import { resolve } from 'node:path';
import { readAdvertFileSync } from '../adverts/files.js';
import { readAdvertYaml } from '../adverts/read-yaml.js';
import { readAdvertText } from '../adverts/markdown.js';
import { hashOf, textHashOf } from './hash.js';

// Adverts read again come from files: `-` (stdin) is never among them.
const noStdin = async function* (): AsyncGenerator<string> {};

/** What is needed to read an advert again: its file as the user named it, its place, what it was. */
export interface AdvertToRead {
  source?: string | undefined;
  document?: number | undefined;
  reference: string;
  hash?: string | undefined;
}

export type ReadAdvert = (change: AdvertToRead) => Promise<CheckedAdvert>;

/** What a stale advert's error says: since when it changed, and what to do. */
export interface StaleWording {
  since: string;
  hint: string;
}

const SYNC_WORDING: StaleWording = { since: 'the plan was made', hint: 'run the sync again: it checks and plans the folder as it is now' };
const CHECK_WORDING: StaleWording = { since: 'it was checked', hint: SYNC_WORDING.hint };

export function advertReader(
  cwd: string,
  settings: AdvertSettings,
  options: ValidateOptions,
  recent: number,
  wording: StaleWording = SYNC_WORDING,
): ReadAdvert {
  const read = recentFiles(cwd, settings, options, recent);
  return async (change) => {
    // The adverts of one document's places share its index: the reference tells them apart.
    const reference = normalReference(change.reference);
    const advert = (await read(change.source!).catch(() => [])).find((a) => a.source.index === change.document && a.reference === reference);
    if (!advert || !isValid(advert) || advert.reference !== normalReference(change.reference) || hashOf(advert.payload) !== change.hash) {
      throw stale(change, wording);
    }
    return advert;
  };
}

/**
 * The content hash of an advert read again: a digest made without one (see TextHashing.textOnly),
 * whose text is not its record's. The hash comes from the very bytes whose text hash the check
 * took, or not at all: a file saved again since it was checked is stale (a text hash recorded with
 * the hash of another text would hide the next change).
 */
export function contentHashReader(
  cwd: string,
  settings: AdvertSettings,
  options: ValidateOptions,
  basis: string,
): (digest: AdvertToRead & { textHash?: string }) => Promise<string> {
  const recent = new Map<string, { textHash: string; adverts: CheckedAdvert[] }>();
  const read = async (file: string) => {
    let got = recent.get(file);
    if (!got) {
      const text = readAdvertFileSync(file, resolve(cwd, file), (bytes) => textHashOf(basis, bytes));
      const adverts =
        'problem' in text
          ? []
          : (await readAdvertText(file, text.text, (f, t) => readAdvertYaml(f, t))).adverts.map((a) => checkAdvert(a, settings, 'create', options));
      got = { textHash: 'problem' in text ? '' : text.digest!, adverts };
      recent.set(file, got);
      // The documents of a multi-document file come one after another: the last few files are kept.
      if (recent.size > 8) recent.delete(recent.keys().next().value!);
    }
    return got;
  };
  return async (digest) => {
    const { textHash, adverts } = await read(digest.source!);
    const advert = adverts.find((a) => a.source.index === digest.document && a.reference === digest.reference);
    if (textHash !== digest.textHash || !advert || !isValid(advert) || advert.reference !== digest.reference) throw stale(digest, CHECK_WORDING);
    return hashOf(advert.payload);
  };
}

const stale = (change: AdvertToRead, wording: StaleWording) =>
  new InvalidInputError(`${change.source} changed since ${wording.since}; nothing was sent for ${change.reference}`, { details: [wording.hint] });

/**
 * The checked adverts of a file, kept for the last few files read: the documents of a
 * multi-document file are read one after another, and reading such a file once per document would
 * be quadratic.
 */
function recentFiles(cwd: string, settings: AdvertSettings, options: ValidateOptions, recent: number): (file: string) => Promise<CheckedAdvert[]> {
  const files = new Map<string, Promise<CheckedAdvert[]>>();
  return (file) => {
    let adverts = files.get(file);
    if (adverts) files.delete(file);
    else
      adverts = loadAdverts([file], { cwd, stdin: noStdin, uniqueReferences: false }).then((loaded) =>
        loaded.problems.length > 0 ? [] : loaded.adverts.map((a) => checkAdvert(a, settings, 'create', options)),
      );
    files.set(file, adverts);
    if (files.size > recent) files.delete(files.keys().next().value!);
    return adverts;
  };
}
