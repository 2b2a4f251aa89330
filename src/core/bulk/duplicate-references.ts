/**
 * The duplicate reference check of a bulk run: each advert's reference is checked against those of
 * every earlier file, keeping two 30-bit hashes and a file number per reference (FirstFileByHash),
 * not the reference itself.
 */
import type { FoundFile } from '../adverts/files.js';
import type { LoadProblem } from '../adverts/types.js';
import { checkFile, flat, type CheckSettings, type ReferenceUse } from './check-file.js';
import { FirstFileByHash } from './first-file-by-hash.js';

interface Place {
  file: number;
  /** The file as shown. */
  display: string;
  line: number;
  column: number;
}

/**
 * Finds references used twice while keeping a number per advert, not its reference: a million
 * adverts cost a few megabytes. A reference whose hash was seen before is a suspect; the file that
 * had the hash first is found again (by its number) and read again (rarely: only for duplicates and
 * hash collisions) to tell.
 */
export class ReferenceIndex {
  /** Hash of a reference -> the file where that hash came first. */
  private readonly byHash = new FirstFileByHash();
  /** References known exactly: those of stdin (which cannot be read again) and resolved suspects. */
  private readonly exact = new Map<string, Place>();
  private readonly suspects: (Place & { reference: string; earlier: number; valid: boolean })[] = [];
  /** Duplicates found by duplicates() whose advert is otherwise valid (the others are counted invalid already). */
  validDuplicates = 0;

  constructor(
    private readonly files: Iterable<FoundFile>,
    private readonly stdin: () => AsyncIterable<Buffer | string>,
    private readonly settings: CheckSettings,
  ) {}

  add(use: ReferenceUse, found: FoundFile, file: number): void {
    const { reference, line, column, valid } = use;
    const earlier = this.byHash.firstOrAdd(hashOf(reference), secondHashOf(reference), file);
    if (earlier !== undefined) {
      this.suspects.push({ reference, file, display: flat(found.display), line, column, earlier, valid });
      return;
    }
    if (found.path === undefined) this.exact.set(reference, { file, display: found.display, line, column });
  }

  /** The duplicates, in file order. */
  async duplicates(): Promise<LoadProblem[]> {
    const problems: LoadProblem[] = [];
    const earlierFiles = this.suspects.length === 0 ? new Map<number, FoundFile>() : this.find(new Set(this.suspects.map((s) => s.earlier)));
    const reread = new Map<number, Map<string, Place>>();
    for (const suspect of this.suspects) {
      let first = this.exact.get(suspect.reference);
      if (first === undefined) {
        let places = reread.get(suspect.earlier);
        if (!places) reread.set(suspect.earlier, (places = await this.placesIn(suspect.earlier, earlierFiles.get(suspect.earlier))));
        first = places.get(suspect.reference);
        // Not in the earlier file (two references with one hash), or that is this very advert: it comes first.
        if (first === undefined || (first.file === suspect.file && first.line === suspect.line && first.column === suspect.column)) first = suspect;
        this.exact.set(suspect.reference, first);
        if (first === suspect) continue;
      }
      if (suspect.valid) this.validDuplicates++;
      problems.push({
        file: suspect.display,
        position: { line: suspect.line, column: suspect.column },
        message: `reference ${JSON.stringify(suspect.reference)} is already used by ${first.display}:${first.line}:${first.column}; each advert needs its own`,
        code: 'duplicate_reference',
      });
    }
    return problems;
  }

  /** The files with these numbers, found by going through the files again. */
  private find(wanted: ReadonlySet<number>): Map<number, FoundFile> {
    const found = new Map<number, FoundFile>();
    let last = 0;
    for (const n of wanted) last = Math.max(last, n);
    let index = 0;
    try {
      for (const file of this.files) {
        if (wanted.has(index)) found.set(index, file);
        if (index++ === last) break;
      }
    } catch {
      // The folders changed since (an argument is gone): the files not found are not named.
    }
    return found;
  }

  /** Each reference of a file (read again) at its first place there. */
  private async placesIn(file: number, found: FoundFile | undefined): Promise<Map<string, Place>> {
    const places = new Map<string, Place>();
    if (found?.path === undefined) return places;
    const c = await checkFile(found, this.stdin, { ...this.settings, records: false, digests: false });
    for (const use of c.references) {
      if (!places.has(use.reference)) places.set(use.reference, { file, display: found.display, line: use.line, column: use.column });
    }
    return places;
  }
}

/** FNV-1a, cut to 30 bits (see FirstFileByHash). */
export function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

/** A second hash, independent of hashOf (another multiplier, mixed at the end), for FirstFileByHash. */
function secondHashOf(text: string): number {
  let h = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) h = Math.imul(h + text.charCodeAt(i), 0x5bd1e995) ^ (h >>> 15);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) & 0x3fffffff;
}
