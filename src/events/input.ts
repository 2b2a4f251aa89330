/** Reads the events file (or stdin) as UTF-8 text and decides its format. */
import { extname, resolve } from 'node:path';
import type { Context } from '../context.js';
import { InvalidInputError, UsageError } from '../errors/failures.js';
import { sanitize } from '../output/sanitize.js';
import { readRegularFileSync, whyUnreadable } from '../util/quick-fs.js';
import { EVENT_FORMATS, type EventFormat } from './types.js';

export const STDIN_NAME = '<stdin>';
/** Beyond this an events file is refused: it is read whole, and a smaller file is easier to rerun. */
export const MAX_EVENTS_BYTES = 64 * 1024 * 1024;

const BY_EXTENSION: Record<string, EventFormat> = { '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.csv': 'csv', '.yaml': 'yaml', '.yml': 'yaml' };

export interface EventsInput {
  /** The file as the user named it, or `<stdin>`. */
  display: string;
  /** Absolute path; undefined for stdin. */
  path?: string;
  format: EventFormat;
  text: string;
}

export function formatFromName(name: string): EventFormat | undefined {
  return BY_EXTENSION[extname(name).toLowerCase()];
}

export async function readEventsInput(ctx: Pick<Context, 'cwd' | 'io'>, arg: string, format?: EventFormat): Promise<EventsInput> {
  const formats = EVENT_FORMATS.join('|');
  if (arg === '-') {
    if (!format) throw new UsageError(`reading events from stdin (-) needs --format ${formats}`);
    return { display: STDIN_NAME, format, text: decode(STDIN_NAME, await readStdin(ctx)) };
  }
  const chosen = format ?? formatFromName(arg);
  if (!chosen) {
    throw new UsageError(`cannot tell the format of ${sanitize(arg)} from its name: use .ndjson, .jsonl, .csv, .yaml or .yml, or pass --format ${formats}`);
  }
  const path = resolve(ctx.cwd, arg);
  let read: ReturnType<typeof readRegularFileSync>;
  try {
    // Refused by name when it is no regular file: a FIFO would block the read, /dev/zero never ends.
    read = readRegularFileSync(path, MAX_EVENTS_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${sanitize(arg)}: no such file`);
    if (code === 'EISDIR') throw new UsageError(`${sanitize(arg)} is a folder; give one events file`);
    throw new UsageError(`${sanitize(arg)}: cannot read it: ${whyUnreadable(error)}`);
  }
  if ('tooLarge' in read) throw tooLarge(arg);
  return { display: arg, path, format: chosen, text: decode(arg, read.bytes) };
}

async function readStdin(ctx: Pick<Context, 'io'>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.io.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_EVENTS_BYTES) throw tooLarge(STDIN_NAME);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function decode(display: string, bytes: Buffer): string {
  if (bytes.length > MAX_EVENTS_BYTES) throw tooLarge(display);
  if (bytes.includes(0)) throw new InvalidInputError(`${sanitize(display)}: this looks like a binary file (it holds a NUL byte), not events text; nothing was sent`);
  try {
    // The decoder also drops a leading byte order mark, which spreadsheets put in CSV exports.
    return decoder.decode(bytes);
  } catch {
    throw new InvalidInputError(`${sanitize(display)}: the file is not UTF-8 text; save it as UTF-8 and try again; nothing was sent`);
  }
}

function tooLarge(display: string): InvalidInputError {
  return new InvalidInputError(`${sanitize(display)}: more than ${MAX_EVENTS_BYTES / 1024 / 1024} MiB of events; split it into smaller files; nothing was sent`);
}
