/**
 * Shapes shared by the events layer: an entry as a parser read it (values with their positions),
 * an entry after validation, and the input formats.
 */
import type { Position } from '../adverts/types.js';
import type { Finding } from '../errors/findings.js';

/** The kinds of event the service takes (the `event` command and every events file). */
export const EVENT_KINDS = ['recruiter_view', 'recruiter_like', 'recruiter_reject'] as const;

export const EVENT_FORMATS = ['ndjson', 'csv', 'yaml'] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];

/** The fields an entry may have; anything else is an unknown field. */
export const ENTRY_FIELDS = ['application_id', 'kind', 'data'] as const;

/** One field of an entry as written, with where its value starts. */
export interface RawField {
  value: unknown;
  /** The scalar exactly as written, when the format keeps it (a YAML plain scalar, a CSV cell). */
  text?: string;
  position: Position;
}

/** One entry as a parser read it, before validation. */
export interface RawEntry {
  /** Where the entry starts (its line, mapping or CSV row). */
  position: Position;
  /** Fields in the order written (a CSV row: its non-empty data cell and every other column). */
  fields: Map<string, RawField>;
}

/** What a reader returns: the entries it could read and every problem, each with a position. */
export interface ReadResult {
  entries: RawEntry[];
  problems: Finding[];
}

/** One entry as read (absent when it could not be read), with the problems found on the way. */
export interface ReadItem {
  entry?: RawEntry;
  problems: Finding[];
}

/** A valid entry, ready to be posted. */
export interface EventEntry {
  /** 0-based position among the file's entries. */
  index: number;
  /** The file as the user named it (`<stdin>` for -). */
  file: string;
  position: Position;
  application_id: string;
  kind: string;
  data?: Record<string, unknown>;
  /** Where each field's value is written (for errors the service reports about a field). */
  fieldPositions: ReadonlyMap<string, Position>;
}
