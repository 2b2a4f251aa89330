/**
 * Files -> adverts: finds the files, reads them (a few at a time), parses every YAML document with
 * positions, and flags the same reference used twice. Problems are collected, not thrown, so a run
 * reports every bad file at once.
 */
import { advertFieldTypes } from '../generated/validators.js';
import { findAdvertFiles, readAdvertFile, type FoundFile } from './files.js';
import type { AdvertSource, LoadProblem, Position } from './types.js';
import { readYamlAdvertsFast } from './fast-yaml.js';

export interface LoadedAdverts {
  files: number;
  adverts: AdvertSource[];
  problems: LoadProblem[];
}

export interface LoadOptions {
  cwd: string;
  /** Opened only when a path is `-`. */
  stdin: () => AsyncIterable<Buffer | string>;
  /** Check that no two adverts share a reference (off for partial update files). */
  uniqueReferences?: boolean;
  /** Absolute paths a folder walk leaves out (a sync state kept in the folder). */
  exclude?: ReadonlySet<string>;
}

const READ_AHEAD = 32;

export async function loadAdverts(paths: readonly string[], options: LoadOptions): Promise<LoadedAdverts> {
  const { files: found, problems: walkProblems } = await findAdvertFiles(paths, options.cwd, options.exclude);
  const perFile: { adverts: AdvertSource[]; problems: LoadProblem[] }[] = new Array(found.length);
  let next = 0;
  const worker = async () => {
    while (next < found.length) {
      const i = next++;
      perFile[i] = await loadFile(found[i]!, options.stdin);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_AHEAD, found.length) }, worker));
  const adverts = perFile.flatMap((r) => r.adverts);
  // Concatenated, not push(...spread): a spread passes every item as an argument, and a few
  // hundred thousand of them overflow the stack.
  let problems = walkProblems.concat(perFile.flatMap((r) => r.problems));
  if (options.uniqueReferences !== false) problems = problems.concat(duplicateReferences(adverts));
  return { files: found.length, adverts, problems };
}

/** Reads one file's adverts (or its problems). */
export async function loadFile(found: FoundFile, stdin: () => AsyncIterable<Buffer | string>): Promise<{ adverts: AdvertSource[]; problems: LoadProblem[] }> {
  const read = await readAdvertFile(found, stdin);
  if ('problem' in read) return { adverts: [], problems: [read.problem] };
  const options = { fieldTypes: advertFieldTypes };
  // The `yaml` package is loaded only for files the fast path leaves to it (and for every error).
  return readYamlAdvertsFast(found.display, read.text, options) ?? (await import('./yaml-reader.js')).readYamlAdvertsSlow(found.display, read.text, options);
}

function duplicateReferences(adverts: readonly AdvertSource[]): LoadProblem[] {
  const first = new Map<string, { file: string; position: Position }>();
  const problems: LoadProblem[] = [];
  for (const advert of adverts) {
    const reference = advert.value.reference;
    if (typeof reference !== 'string' || reference.trim() === '') continue;
    const position = advert.locate(['reference']);
    const earlier = first.get(reference);
    if (earlier) {
      problems.push({
        file: advert.file,
        position,
        message: `reference ${JSON.stringify(reference)} is already used by ${earlier.file}:${earlier.position.line}:${earlier.position.column}; each advert needs its own`,
        code: 'duplicate_reference',
      });
    } else first.set(reference, { file: advert.file, position });
  }
  return problems;
}
