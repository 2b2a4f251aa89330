/**
 * The events input: its format, and its lines. An NDJSON or CSV file is read in pieces, afresh on
 * each pass (one to validate, one to send), so its size does not bound what a run can hold in
 * memory; a YAML file (one document) and stdin (which cannot be read twice) are read whole.
 */
import { open } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { InvalidInputError, UsageError } from '../errors/failures.js';
import { sanitize } from '../util/sanitize.js';
import { STDIN_NAME } from '../util/stdin-name.js';
import { readRegularFileSync, statRegularFile, whyUnreadable } from '../util/quick-fs.js';
import { EVENT_FORMATS, type EventFormat } from './types.js';

/** What reading the input needs from its caller (the CLI's context is one): the folder names are relative to, and stdin. */
export interface InputSource {
  cwd: string;
  io: { stdin: AsyncIterable<Buffer | string> };
}

/** Beyond this an input read whole (YAML, stdin) is refused; a smaller file is easier to rerun. */
export const MAX_EVENTS_BYTES = 64 * 1024 * 1024;
/** Beyond this a line (or a CSV record) is refused: one event is a few hundred bytes. */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;
/** How much of a streamed file is read at a time. */
const PIECE_BYTES = 1024 * 1024;

const BY_EXTENSION: Record<string, EventFormat> = { '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.csv': 'csv', '.yaml': 'yaml', '.yml': 'yaml' };

export interface EventsInput {
  /** The file as the user named it, or `<stdin>`. */
  display: string;
  /** Absolute path; undefined for stdin. */
  path?: string;
  format: EventFormat;
  /** The whole text, when the input is read whole (YAML, stdin); undefined when it is streamed. */
  text?: string;
}

export function formatFromName(name: string): EventFormat | undefined {
  return BY_EXTENSION[extname(name).toLowerCase()];
}

export async function readEventsInput(ctx: InputSource, arg: string, format?: EventFormat): Promise<EventsInput> {
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
  try {
    // Refused by name when it is no regular file: a FIFO would block the read, /dev/zero never ends.
    if (chosen !== 'yaml') {
      statRegularFile(path);
      return { display: arg, path, format: chosen };
    }
    const read = readRegularFileSync(path, MAX_EVENTS_BYTES);
    if ('tooLarge' in read) throw tooLarge(arg);
    return { display: arg, path, format: chosen, text: decode(arg, read.bytes) };
  } catch (error) {
    throw unreadable(arg, error);
  }
}

function unreadable(display: string, error: unknown): Error {
  if (error instanceof InvalidInputError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new UsageError(`${sanitize(display)}: no such file`);
  if (code === 'EISDIR') return new UsageError(`${sanitize(display)} is a folder; give one events file`);
  return new UsageError(`${sanitize(display)}: cannot read it: ${whyUnreadable(error)}`);
}

/** At most this many lines in a group: a group's entries are all held at once. */
const GROUP_LINES = 1024;

/**
 * The input's lines, without their `\n` (a `\r` before it stays), read afresh on each call; a
 * last empty line is not given. A streamed file is checked as it is read: no NUL byte, UTF-8.
 */
export async function* inputLines(input: EventsInput): AsyncGenerator<string> {
  for await (const group of inputLineGroups(input)) yield* group;
}

/**
 * The same lines in groups of up to GROUP_LINES, in order: a run reads each line twice, and a
 * step of an async generator per line and per layer cost more than reading the line.
 */
export async function* inputLineGroups(input: EventsInput): AsyncGenerator<string[]> {
  let group: string[] = [];
  if (input.text !== undefined) {
    const { text } = input;
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      group.push(text.slice(start, end));
      start = end + 1;
      if (group.length === GROUP_LINES) {
        yield group;
        group = [];
      }
    }
    if (start < text.length) group.push(text.slice(start));
    if (group.length > 0) yield group;
    return;
  }
  const display = input.display;
  let handle;
  try {
    handle = await open(input.path!, 'r');
  } catch (error) {
    throw unreadable(display, error);
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const buffer = Buffer.allocUnsafe(PIECE_BYTES);
  let rest = '';
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      const piece = buffer.subarray(0, bytesRead);
      if (piece.includes(0)) throw binary(display);
      let text: string;
      try {
        // The decoder holds a character split between pieces, and drops a leading byte order mark.
        text = rest + decoder.decode(piece, { stream: bytesRead > 0 });
      } catch {
        throw notUtf8(display);
      }
      let start = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        group.push(text.slice(start, end));
        start = end + 1;
        if (group.length === GROUP_LINES) {
          yield group;
          group = [];
        }
      }
      if (group.length > 0) {
        yield group;
        group = [];
      }
      rest = text.slice(start);
      if (rest.length > MAX_LINE_CHARS) throw lineTooLong(display);
      if (bytesRead === 0) break;
    }
  } finally {
    await handle.close();
  }
  if (rest !== '') yield [rest];
}

async function readStdin(ctx: Pick<InputSource, 'io'>): Promise<Buffer> {
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
  if (bytes.includes(0)) throw binary(display);
  try {
    // The decoder also drops a leading byte order mark, which spreadsheets put in CSV exports.
    return decoder.decode(bytes);
  } catch {
    throw notUtf8(display);
  }
}

function binary(display: string): InvalidInputError {
  return new InvalidInputError(`${sanitize(display)}: this looks like a binary file (it holds a NUL byte), not events text; nothing was sent`);
}

function notUtf8(display: string): InvalidInputError {
  return new InvalidInputError(`${sanitize(display)}: the file is not UTF-8 text; save it as UTF-8 and try again; nothing was sent`);
}

export function lineTooLong(display: string): InvalidInputError {
  return new InvalidInputError(
    `${sanitize(display)}: a line longer than ${MAX_LINE_CHARS / 1024 / 1024} MiB; an event is a line of a few hundred bytes (is this an events file?); nothing was sent`,
  );
}

function tooLarge(display: string): InvalidInputError {
  const how =
    display === STDIN_NAME
      ? 'pass an NDJSON or CSV file by name (read in pieces, of any size), or split the input'
      : 'use NDJSON or CSV (read in pieces, of any size), or split it into smaller files';
  return new InvalidInputError(`${sanitize(display)}: more than ${MAX_EVENTS_BYTES / 1024 / 1024} MiB of events; ${how}; nothing was sent`);
}
