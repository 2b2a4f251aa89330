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
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, writeSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { homeDir } from '../config/paths.js';

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
 * The key a service's history is kept under: its base URL with the scheme and host lower-cased,
 * the default port dropped and trailing slashes removed, so `HTTPS://Api.Example.com:443/v1/` and
 * `https://api.example.com/v1` share one history. Anything that is not a URL (`sandbox`) is kept.
 */
export function normaliseService(service: string): string {
  const text = service.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (!/^https?:$/.test(url.protocol)) return text;
  // URL lower-cases the scheme and host and drops a default port; the path keeps its case.
  return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
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
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const byMonth = new Map<string, string[]>();
    for (const s of snapshots) {
      const month = new Date(s.at).toISOString().slice(0, 7);
      let lines = byMonth.get(month);
      if (!lines) byMonth.set(month, (lines = []));
      lines.push(formatLine(s));
    }
    for (const [month, lines] of byMonth) appendLines(join(this.folder, `${month}.log`), lines.join(''));
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
    const fromMonth = new Date(Math.max(0, from)).toISOString().slice(0, 7);
    const out: Snapshot[] = [];
    for (const month of this.months()) {
      if (month < fromMonth) continue;
      parseLines(readFileSync(join(this.folder, `${month}.log`), 'utf8'), from, out);
    }
    // Two runs at once may append out of order; each segment is nearly sorted, so this is cheap.
    out.sort((a, b) => a.at - b.at);
    return out;
  }

  /** Each advert's newest snapshot (before `before`, when given), looking back month by month. */
  latest(references?: ReadonlySet<string>, before = Infinity): Map<string, Snapshot> {
    const found = new Map<string, Snapshot>();
    for (const month of this.months().reverse()) {
      const rows: Snapshot[] = [];
      parseLines(readFileSync(join(this.folder, `${month}.log`), 'utf8'), 0, rows);
      for (const s of rows) {
        if (s.at >= before || (references && !references.has(s.reference))) continue;
        const seen = found.get(s.reference);
        if (!seen || seen.at < s.at) found.set(s.reference, s);
      }
      // Older months cannot hold a newer snapshot of an advert already found.
      if (references && [...references].every((r) => found.has(r))) break;
    }
    return found;
  }
}

function formatLine(s: Snapshot): string {
  return `${Math.floor(s.at / 1000)} ${s.views} ${s.likes} ${s.applications} ${s.applications_unviewed} ${encodeURIComponent(s.reference)};\n`;
}

const COUNT = /^\d{1,15}$/;

/** Complete lines only: a last line without its newline was cut by an interrupted write. */
export function parseLines(text: string, from: number, out: Snapshot[]): void {
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    if (end === -1) return;
    const line = text.slice(start, end);
    start = end + 1;
    if (!line.endsWith(';')) continue;
    const f = line.slice(0, -1).split(' ');
    if (f.length !== 6 || f[5] === '' || !f.slice(0, 5).every((n) => COUNT.test(n!))) continue;
    const at = Number(f[0]) * 1000;
    if (at < from) continue;
    let reference: string;
    try {
      reference = f[5]!.includes('%') ? decodeURIComponent(f[5]!) : f[5]!;
    } catch {
      continue;
    }
    out.push({ reference, at, views: Number(f[1]), likes: Number(f[2]), applications: Number(f[3]), applications_unviewed: Number(f[4]) });
  }
}

/** One O_APPEND write of whole lines, after a newline if the segment ends with a cut line. */
function appendLines(file: string, text: string): void {
  const fd = openSync(file, 'a+', 0o600);
  try {
    const size = fstatSync(fd).size;
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    const bytes = Buffer.from(prefix + text);
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
  } finally {
    closeSync(fd);
  }
}
