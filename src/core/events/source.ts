/**
 * The entries of the input in groups (of up to 1,024 lines, for NDJSON), each with the problems
 * found in it, in file order; a fresh pass on each call. Only what one group needs is held,
 * whatever the file's size (a YAML file, read whole, is parsed once and kept). Groups, not single
 * items: each layer of async generators costs a few promises per step, twice a line per run.
 */
import { CsvReader, csvSyntax, parseCsv } from './csv.js';
import { inputLineGroups, inputLines, lineTooLong, MAX_LINE_CHARS, type EventsInput } from './input.js';
import { readNdjsonLine } from './ndjson.js';
import type { ReadItem, ReadResult } from './types.js';
import { readYaml } from './yaml.js';

export function readItemGroups(input: EventsInput): AsyncGenerator<ReadItem[]> {
  switch (input.format) {
    case 'ndjson':
      return ndjsonItems(input);
    case 'csv':
      return oneByOne(csvItems(input));
    case 'yaml':
      return oneByOne(yamlItems(input));
  }
}

/** Groups of one: CSV records and YAML entries are few beside NDJSON lines. */
async function* oneByOne(items: AsyncGenerator<ReadItem>): AsyncGenerator<ReadItem[]> {
  for await (const item of items) yield [item];
}

async function* ndjsonItems(input: EventsInput): AsyncGenerator<ReadItem[]> {
  let line = 0;
  for await (const texts of inputLineGroups(input)) {
    const items: ReadItem[] = [];
    for (const text of texts) {
      const item = readNdjsonLine(input.display, text, ++line);
      if (item) items.push(item);
    }
    if (items.length > 0) yield items;
  }
}

/**
 * CSV is parsed a record at a time: lines are gathered until their double quotes pair up, so a
 * line break inside a quoted field stays inside its record.
 */
async function* csvItems(input: EventsInput): AsyncGenerator<ReadItem> {
  const reader = new CsvReader(input.display);
  let lines: string[] = [];
  let chars = 0;
  let quotes = 0;
  let firstLine = 1;
  function* records(): Generator<ReadItem> {
    const parsed = parseCsv(`${lines.join('\n')}\n`, firstLine);
    if (parsed.errors.length > 0) yield { problems: parsed.errors.map((e) => csvSyntax(input.display, e)) };
    for (const record of parsed.records) yield reader.record(record);
    firstLine = parsed.nextLine;
    lines = [];
    chars = 0;
    quotes = 0;
  }
  for await (const text of inputLines(input)) {
    lines.push(text);
    chars += text.length;
    if (chars > MAX_LINE_CHARS) throw lineTooLong(input.display);
    for (let i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) quotes++;
    if (quotes % 2 === 0) yield* records();
  }
  // A quoted field left open runs to the end of the file, where the parser reports it.
  if (lines.length > 0) yield* records();
}

const parsedYaml = new WeakMap<EventsInput, ReadResult>();

async function* yamlItems(input: EventsInput): AsyncGenerator<ReadItem> {
  let read = parsedYaml.get(input);
  if (!read) parsedYaml.set(input, (read = readYaml(input.display, input.text ?? '')));
  if (read.problems.length > 0) yield { problems: read.problems };
  for (const entry of read.entries) yield { entry, problems: [] };
}
