/**
 * Checking one file of a bulk run: read, parse, check each advert, locate its findings while the
 * text is still in memory, and keep only what the run reports (counts, findings, references, and on
 * request a record or a digest per advert). No threads and no scheduling here: run-files.ts hands
 * files to this on the main thread and on workers (worker.ts) alike.
 */
import { PART_CHARS, readFileAtOnce, readFileInParts } from '../adverts/load.js';
import { readAdvertFile, type FoundFile } from '../adverts/files.js';
import type { AdvertSource, ReadResult } from '../adverts/types.js';
import { expansionOf, placeFindings } from '../adverts/locations.js';
import { findingFromProblem, type Finding } from '../errors/findings.js';
import { findingsFromTree } from '../validation/tree-findings.js';
import type { ErrorTree } from '../errors/tree.js';
import { checkAdvert, isValid, type AdvertSettings } from '../validation/check.js';
import type { AdvertMode, ValidateOptions } from '../validation/validate.js';
import { DATES_BLOCK, type AdvertDates } from '../adverts/dates.js';
import { applyIgnores, ignoreComments, textRanges, unknownIgnores, wordLocator } from '../wording/silence.js';
import { isMarkdownName } from '../adverts/markdown.js';

/**
 * What a run checks with. Plain data only (structured-clone safe): it is handed to each worker
 * thread whole, so a setting added here reaches the workers without being listed anywhere else.
 */
export interface CheckSettings {
  settings: AdvertSettings;
  mode: AdvertMode;
  options: ValidateOptions;
  /** Keep a record per advert (for --json); off, a valid advert leaves nothing behind. */
  records: boolean;
  /** Keep a digest of each valid advert with a reference (what a sync or a publish plans with). */
  digests?: boolean;
  /** With `digests`: hash each file's text too (see textHashOf), and skip the content hash of a text the state knows. */
  texts?: TextHashing;
  /** Keep each valid advert whole, with where these paths are written (what `jobs export` reads; see KeptAdvert). */
  keep?: { at: readonly (readonly string[])[] };
}

export interface TextHashing {
  /** textHashBasis of the run's settings. */
  basis: string;
  /**
   * Leave out the content hash of an advert read from a whole file: the plan finds most adverts
   * unchanged from the text hash alone, and hashes the payloads of the others (read again, see
   * contentHashReader).
   */
  textOnly: boolean;
}

/** One advert as --json lists it. */
export interface AdvertRecord {
  file: string;
  document: number;
  /** The line the advert starts on. */
  line: number;
  reference: string | null;
  valid: boolean;
  errors: ErrorTree;
}

/** A reference an advert uses, where, and whether its advert is valid: for the duplicate check across files. */
export interface ReferenceUse {
  reference: string;
  line: number;
  column: number;
  valid: boolean;
}

/** What a valid advert with a reference leaves for a sync or a publish: enough to plan, and to read it again. */
export interface AdvertDigest {
  reference: string;
  /** The YAML document's index in its file. */
  document: number;
  /** Content hash of its payload; '' when left out (`texts.textOnly`). */
  hash: string;
  /** Hash of its file's text; '' when the file was read in parts (too large to hash whole) or texts are not hashed. */
  textHash: string;
  /** Its `jobs:` dates, when it has any (see adverts/dates.ts): a sync plans with them. */
  dates?: AdvertDates;
  /** For an advert made from a `locations:` list: its file's reference, which the adverts of its places share. */
  group?: string;
}

/**
 * A valid advert kept whole (`keep`): plain data, so a worker hands it back as it is. `jobs` is
 * its `jobs:` block as written (never sent); `at` the positions of the paths asked for, by dotted
 * path (a path not written points at its nearest parent, as locate does).
 */
export interface KeptAdvert {
  reference: string;
  file: string;
  document: number;
  line: number;
  column: number;
  payload: Record<string, unknown>;
  jobs?: unknown;
  dates?: AdvertDates;
  group?: string;
  at: Record<string, { line: number; column: number }>;
}

/** What one file leaves behind. */
export interface FileCheck {
  adverts: number;
  invalid: number;
  findings: Finding[];
  /** Problem codes of the file (unreadable, YAML syntax, ...); duplicates are found across files later. */
  problems: string[];
  references: ReferenceUse[];
  records?: AdvertRecord[];
  /** With `digests`. */
  digests?: AdvertDigest[];
  /** Findings that do not make an advert invalid (a closing date that has passed, a local rule's warning). */
  warnings?: Finding[];
  /** With `keep`. */
  kept?: KeptAdvert[];
}

/**
 * Checks a file too large to read at once elsewhere (run-files.ts: on a worker of its own, which a
 * signal ends at once; this thread, busy for seconds, would hear it only when done). `stdinText`:
 * stdin's text, read here (no other thread can read stdin).
 */
export type CheckLargeFile = (found: FoundFile, stdinText?: string) => Promise<FileCheck>;

export async function checkFile(
  listed: FoundFile,
  stdin: () => AsyncIterable<Buffer | string>,
  s: CheckSettings,
  large?: () => CheckLargeFile | undefined,
): Promise<FileCheck> {
  // The name as shown, copied: a name from a folder's listing shares that listing's memory (every
  // name of the folder), and a finding keeping it would keep the whole listing to the end of the run.
  const found: FoundFile = listed.path === undefined ? { display: flat(listed.display) } : { display: flat(listed.display), path: listed.path };
  const out: FileCheck = { adverts: 0, invalid: 0, findings: [], problems: [], references: [] };
  if (s.records) out.records = [];
  const add = (part: ReadResult, text = part.text) => {
    for (const p of part.problems) {
      out.findings.push(findingFromProblem(p));
      out.problems.push(p.code);
    }
    out.adverts += part.adverts.length;
    // The wording checks: a word's own line and column, and the comments that silence them, are read in the text.
    const wording = s.settings.wording && text !== undefined ? { text, firstLine: part.firstLine ?? 1, from: out.warnings?.length ?? 0 } : undefined;
    for (const source of part.adverts) checkOne(source, s, out, textHash, wording);
    if (wording) silence(found.display, { ...wording, adverts: part.adverts }, out);
  };
  const texts = s.digests ? s.texts : undefined;
  // A file too large to be read whole (read in parts) has no text hash: its bytes are not hashed.
  const hashText = texts && ((bytes: Uint8Array) => (bytes.length > 4 * PART_CHARS ? '' : hashing!.textHashOf(texts.basis, bytes)));
  const once = found.path === undefined ? undefined : readFileAtOnce(found.display, found.path, hashText);
  // A file read whole has one text hash for its documents; one read in parts has none.
  const textHash = once && 'result' in once ? (once.digest ?? '') : '';
  if (once && 'result' in once) add(once.result instanceof Promise ? await once.result : once.result, once.text);
  else {
    const elsewhere = large?.();
    if (once && elsewhere) return elsewhere(found);
    // Stdin is read here; as large as a file checked on a worker, it is checked there too.
    const read = once?.read ?? (await readAdvertFile(found, stdin));
    if (!once && elsewhere && 'text' in read && read.text.length > PART_CHARS) return elsewhere(found, read.text);
    // A large multi-document file comes in parts: each is checked and dropped before the next.
    for await (const part of readFileInParts(found, stdin, read)) add(part);
  }
  return out;
}

/** Applies a part's jobs-ignore comments to the wording warnings its adverts gave (wording/silence.ts). */
function silence(file: string, part: { text: string; firstLine: number; from: number; adverts: AdvertSource[] }, out: FileCheck): void {
  if (!part.text.includes('jobs-ignore')) return;
  const comments = ignoreComments(part.text, part.firstLine, textRanges(part.text, part.firstLine, part.adverts, isMarkdownName(file)));
  if (comments.length === 0) return;
  for (const p of unknownIgnores(file, comments)) {
    out.findings.push(findingFromProblem(p));
    out.problems.push(p.code);
  }
  const mine = out.warnings?.slice(part.from) ?? [];
  const { kept, unused } = applyIgnores(file, comments, mine);
  const all = [...(out.warnings?.slice(0, part.from) ?? []), ...kept, ...unused];
  if (all.length > 0) out.warnings = all;
  else delete out.warnings;
}

/** The hashes, loaded only by runs that ask for digests: node:crypto costs every other run start-up time. */
let hashing: typeof import('./hash.js') | undefined;

/** Loads the hashes before checking with `digests` (checkFiles does it; a worker does it on start). */
export async function loadHashing(): Promise<void> {
  hashing ??= await import('./hash.js');
}

/**
 * `wording`: the text the advert was read from, where a wording finding's word is found; the
 * locator is made only for an advert with findings (most have none).
 */
function checkOne(source: AdvertSource, s: CheckSettings, out: FileCheck, textHash: string, wording?: { text: string; firstLine: number }): void {
  const c = checkAdvert(source, s.settings, s.mode, s.options);
  const located = (): AdvertSource => (wording ? { ...source, locateIn: wordLocator(wording.text, wording.firstLine, source.value, source.locate) } : source);
  const valid = isValid(c);
  const reference = c.reference === undefined ? undefined : flat(c.reference);
  if (!valid) {
    out.invalid++;
    for (const f of placeFindings(source, findingsFromTree(c.tree, located(), reference, { value: c.validated, constants: s.settings.constants })))
      out.findings.push(f);
  }
  if (s.mode === 'create' && typeof source.value.reference === 'string' && source.value.reference.trim() !== '') {
    const at = source.locate(['reference']);
    out.references.push({ reference: flat(source.value.reference), line: at.line, column: at.column, valid });
  }
  out.records?.push({ file: source.file, document: source.index, line: source.locate([]).line, reference: reference ?? null, valid, errors: c.tree });
  if (s.digests && valid && reference !== undefined) {
    const textOnly = textHash !== '' && s.texts!.textOnly;
    const group = expansionOf(source)?.group;
    (out.digests ??= []).push({
      reference,
      document: source.index,
      hash: textOnly ? '' : hashing!.hashOf(c.payload),
      textHash,
      ...(c.dates ? { dates: c.dates } : {}),
      ...(group === undefined ? {} : { group }),
    });
  }
  if (s.keep && valid && reference !== undefined) {
    const start = source.locate([]);
    const at: KeptAdvert['at'] = {};
    for (const path of s.keep.at) {
      const p = source.locate(path);
      at[path.join('.')] = { line: p.line, column: p.column };
    }
    const group = expansionOf(source)?.group;
    (out.kept ??= []).push({
      reference,
      file: source.file,
      document: source.index,
      line: start.line,
      column: start.column,
      payload: c.payload,
      ...(Object.hasOwn(source.value, DATES_BLOCK) ? { jobs: source.value[DATES_BLOCK] } : {}),
      ...(c.dates ? { dates: c.dates } : {}),
      ...(group === undefined ? {} : { group }),
      at,
    });
  }
  // Warnings of a valid advert (its errors say more); the table says which rules warn (local-rules.ts).
  if (valid && c.warnings)
    for (const f of placeFindings(source, findingsFromTree(c.warnings, located(), reference))) (out.warnings ??= []).push({ ...f, severity: 'warning' });
}

/** A string that shares no memory with the text it was sliced from. */
export function flat(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}
