/**
 * The local history of statistics: one snapshot per advert per `jobs stats` run.
 *
 * Storage, chosen for a year of daily snapshots of 10,000 adverts (3.65 million rows):
 * - one folder per service (`<dir>/<service, URL-encoded>/`), so services never mix and a service's
 *   history can be copied or deleted as a folder;
 * - monthly segments (`2026-11.log`), so a query for "the last snapshot" or "the last 7 days"
 *   reads only the newest one or two files, and old months can be archived;
 * - append-only text, one snapshot per line: `<unix seconds> <views> <likes> <applications>
 *   <unviewed> <reference, URL-encoded>;` (~30 bytes a row: ~110 MB for the year, ~9 MB a month).
 *   Text parses faster than JSON per line and needs no dependency (Node 20 has no SQLite, and a
 *   native module would cost install time and start-up).
 * - safe to interrupt and to run twice at once: every batch is written with one O_APPEND write of
 *   whole lines (the kernel appends each write at the end, under the file's lock, so two runs'
 *   writes never interleave inside a line), and a line is only taken when it ends with a newline
 *   and its `;` terminator (which URL-encoding never leaves in a reference): a line cut by a kill
 *   is ignored. A writer that finds a segment not
 *   ending in a newline starts with one, so a cut line cannot swallow the next run's first line.
 */
import { existsSync, readdirSync } from 'node:fs';
import { AppendLog } from '../storage/append-log.js';
import { cannotRead, StorageError, whyUnwritable } from '../storage/errors.js';
import { ensureFolder, readOwnFile } from '../storage/open.js';
import { removeOwnFolder } from '../storage/replace.js';
import { isAbsolute, join } from 'node:path';
import { homeDir } from '../config/paths.js';
import { canonicalServiceKey } from '../config/service-key.js';

/** The four counters of the statistics resource. */
export interface Counters {
  views: number;
  likes: number;
  applications: number;
  applications_unviewed: number;
}

/** One advert's counters at one moment. */
export interface Snapshot extends Counters {
  reference: string;
  /** Epoch milliseconds (stored to the second). */
  at: number;
}

type Env = Record<string, string | undefined>;

/** `$XDG_STATE_HOME/jobs/history`, or `~/.local/state/jobs/history` (a relative XDG path is ignored). */
export function defaultHistoryDir(env: Env): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'jobs', 'history');
  return join(homeDir(env), '.local', 'state', 'jobs', 'history');
}

/**
 * The key a service's history is kept under: the same key as the sync state's and the journal's
 * (scheme and host lower-cased, default port and dot segments dropped, trailing slashes removed), so
 * `HTTPS://Api.Example.com:443/v1/` and `https://api.example.com/v1` share one history. Anything
 * that is not a URL (`sandbox`) is kept.
 */
export function normaliseService(service: string): string {
  return canonicalServiceKey(service);
}

const MONTH = /^(\d{4}-\d{2})\.log$/;

/** A service's history: append snapshots, read them back by time. */
export class History {
  readonly folder: string;

  constructor(
    readonly dir: string,
    readonly service: string,
  ) {
    this.folder = join(dir, encodeURIComponent(normaliseService(service)));
  }

  /** Appends snapshots (one write per segment); creates the folders on first use. */
  append(snapshots: readonly Snapshot[]): void {
    if (snapshots.length === 0) return;
    ensureFolder(this.folder, 0o700);
    const byMonth = new Map<string, string[]>();
    for (const s of snapshots) {
      const month = new Date(s.at).toISOString().slice(0, 7);
      let lines = byMonth.get(month);
      if (!lines) byMonth.set(month, (lines = []));
      lines.push(formatLine(s));
    }
    let recorded = 0;
    for (const [month, lines] of byMonth) {
      const file = join(this.folder, `${month}.log`);
      try {
        appendLines(file, lines.join(''));
      } catch (error) {
        throw new HistoryWriteError(file, error, recorded, snapshots.length);
      }
      recorded += lines.length;
    }
  }

  /** A month's segment, read as every file of the tool's own is (a FIFO planted there would never end). */
  private segment(month: string): string {
    const file = join(this.folder, `${month}.log`);
    try {
      return readOwnFile(file);
    } catch (error) {
      throw cannotRead(file, file, error, { what: 'the history segment' });
    }
  }

  /** The segments' months, oldest first. */
  months(): string[] {
    if (!existsSync(this.folder)) return [];
    return readdirSync(this.folder)
      .flatMap((name) => MONTH.exec(name)?.[1] ?? [])
      .sort();
  }

  /**
   * Snapshots taken at or after `from` (epoch ms; all when omitted), oldest first, reading only the
   * segments that can hold them.
   */
  read(from = 0): Snapshot[] {
    const out: Snapshot[] = [];
    this.scan(from, collect(out));
    // Runs append in time order; only two runs at once (or a clock set back) need the sort.
    for (let i = 1; i < out.length; i++) {
      if (out[i]!.at < out[i - 1]!.at) {
        out.sort((a, b) => a.at - b.at);
        break;
      }
    }
    return out;
  }

  /** Every snapshot from `from` (epoch ms), in file order (nearly time order), without objects. */
  scan(from: number, visit: Visitor): void {
    for (const _month of this.segments(from, visit));
  }

  /** scan a month at a time: each step visits the snapshots of one month's segment, and yields the month. */
  *segments(from: number, visit: Visitor): Generator<string> {
    const fromMonth = new Date(Math.max(0, from)).toISOString().slice(0, 7);
    const names = new Map<string, string>();
    for (const month of this.months()) {
      if (month < fromMonth) continue;
      parseLines(this.segment(month), from, visit, names);
      yield month;
    }
  }

  /** The times of the first and last snapshot from `from`, reading only the oldest and newest segments that hold one. */
  span(from = 0): { first: number; last: number } | undefined {
    const fromMonth = new Date(Math.max(0, from)).toISOString().slice(0, 7);
    const months = this.months().filter((m) => m >= fromMonth);
    const edge = (list: string[], pick: (a: number, b: number) => number): number | undefined => {
      for (const month of list) {
        let found: number | undefined;
        parseLines(this.segment(month), from, (_r, at) => (found = found === undefined ? at : pick(found, at)));
        if (found !== undefined) return found;
      }
      return undefined;
    };
    const first = edge(months, Math.min);
    const last = edge([...months].reverse(), Math.max);
    return first === undefined || last === undefined ? undefined : { first, last };
  }

  /** Each advert's newest snapshot (before `before`, when given), looking back month by month. */
  latest(references?: ReadonlySet<string>, before = Infinity, notBefore = 0): Map<string, Snapshot> {
    return this.latestBefore(references, [before], notBefore)[0]!;
  }

  /**
   * For each cut-off time, each advert's newest snapshot before it, in one pass over the segments,
   * newest month first; it stops at `notBefore` (so an advert never recorded does not make every
   * run read years of history) or as soon as every reference has its answers.
   */
  latestBefore(references: ReadonlySet<string> | undefined, befores: readonly number[], notBefore = 0): Map<string, Snapshot>[] {
    const found = befores.map(() => new Map<string, Snapshot>());
    const oldest = new Date(Math.max(0, notBefore)).toISOString().slice(0, 7);
    const names = new Map<string, string>();
    for (const month of this.months().reverse()) {
      if (month < oldest) break;
      parseLines(
        this.segment(month),
        notBefore,
        (reference, at, views, likes, applications, applications_unviewed) => {
          if (references && !references.has(reference)) return;
          for (let i = 0; i < befores.length; i++) {
            if (at >= befores[i]!) continue;
            const seen = found[i]!.get(reference);
            if (!seen) found[i]!.set(reference, { reference, at, views, likes, applications, applications_unviewed });
            else if (seen.at < at) {
              // Updated in place: lines come in time order, so this runs for nearly every line.
              seen.at = at;
              seen.views = views;
              seen.likes = likes;
              seen.applications = applications;
              seen.applications_unviewed = applications_unviewed;
            }
          }
        },
        names,
      );
      // Older months cannot hold a newer snapshot of an advert already found.
      if (references && found.every((map) => map.size === references.size)) break;
    }
    return found;
  }
}

/** Forgets a service's whole history (its folder, `jobs sandbox --reset`); true when there was one. */
export function forgetHistory(dir: string, service: string): boolean {
  return removeOwnFolder(new History(dir, service).folder);
}

function formatLine(s: Snapshot): string {
  return `${Math.floor(s.at / 1000)} ${s.views} ${s.likes} ${s.applications} ${s.applications_unviewed} ${encodeURIComponent(s.reference)};\n`;
}

/** Receives one snapshot's fields, without an object per snapshot (a year is millions of them). */
export type Visitor = (reference: string, at: number, views: number, likes: number, applications: number, unviewed: number) => void;

const collect =
  (out: Snapshot[]): Visitor =>
  (reference, at, views, likes, applications, applications_unviewed) =>
    out.push({ reference, at, views, likes, applications, applications_unviewed });

/**
 * Complete lines only: a last line without its newline and `;` was cut by an interrupted write.
 * Parsed by character codes rather than split and regular expressions: a year of 10,000 adverts
 * is 3.65 million lines, and this is the loop they all go through. References are interned, so
 * a year of snapshots holds each reference once.
 */
export function parseLines(text: string, from: number, visit: Visitor, names: Map<string, string> = new Map()): void {
  const length = text.length;
  const numbers = [0, 0, 0, 0, 0];
  let pos = 0;
  while (pos < length) {
    let end = text.indexOf('\n', pos);
    if (end === -1) return;
    const lineStart = pos;
    pos = end + 1;
    if (end - lineStart < 12 || text.charCodeAt(end - 1) !== 59 /* ; */) continue;
    end -= 1;
    let i = lineStart;
    let ok = true;
    for (let f = 0; f < 5 && ok; f++) {
      let n = 0;
      const first = i;
      for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i)) n = n * 10 + (c - 48);
      ok = i > first && i - first <= 15 && text.charCodeAt(i) === 32;
      numbers[f] = n;
      i++;
    }
    if (!ok || i >= end) continue;
    const at = numbers[0]! * 1000;
    if (at < from) continue;
    const raw = text.slice(i, end);
    let reference = names.get(raw);
    if (reference === undefined) {
      if (raw.includes(' ')) continue;
      try {
        reference = raw.includes('%') ? decodeURIComponent(raw) : raw;
      } catch {
        continue;
      }
      names.set(raw, reference);
    }
    visit(reference, at, numbers[1]!, numbers[2]!, numbers[3]!, numbers[4]!);
  }
}

/**
 * One append of whole lines (storage/append-log.ts: all or nothing, never through a link planted
 * as a month's file), after a newline if the segment ends with a cut line. Not fsynced: a snapshot
 * lost to a power cut is taken again by the next `stats` run.
 */
function appendLines(file: string, text: string): void {
  const log = AppendLog.open(file, { mode: 0o600, endWithNewline: true });
  try {
    log.append(text);
  } finally {
    log.close();
  }
}

/** A history write that failed: how many of the run's snapshots were recorded before it (whole months). */
export class HistoryWriteError extends StorageError {
  constructor(
    file: string,
    cause: unknown,
    readonly recorded: number,
    readonly total: number,
  ) {
    super(`cannot write the history ${file}: ${whyUnwritable(cause)}`, file, cause);
  }
}
