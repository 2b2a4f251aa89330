/** The optional `data` of an event: a JSON object from --data, or a JSON/YAML file from --data-file. */
import { resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { aliasExcess } from '../util/yaml-aliases.js';
import { InvalidInputError, UsageError } from '../errors/failures.js';
import { EXACT_HINT, firstInexactJsonNumber, firstInexactYamlNumber } from '../util/exact-numbers.js';
import { sanitize } from '../util/sanitize.js';
import { readFile, whyUnreadable } from '../util/quick-fs.js';

/** Where relative paths start, and what `--data-file -` reads (the CLI's Context satisfies it). */
export interface EventDataInput {
  cwd: string;
  io: { stdin: AsyncIterable<Buffer | string> };
}

export async function readEventData(ctx: EventDataInput, flags: { data?: string; dataFile?: string }): Promise<Record<string, unknown> | undefined> {
  let value: unknown;
  if (flags.data !== undefined) {
    try {
      value = JSON.parse(flags.data);
    } catch (error) {
      throw new UsageError(`--data is not valid JSON: ${(error as Error).message}`, { details: [`example: --data '{"reason": "position filled"}'`] });
    }
    if (!isObject(value)) throw new UsageError('--data must be a JSON object, like {"reason": "position filled"}');
    const inexact = firstInexactJsonNumber(flags.data);
    if (inexact) throw new UsageError(`--data: ${inexact.reason}`, { details: [EXACT_HINT] });
    return value;
  }
  if (flags.dataFile === undefined) return undefined;
  let text: string;
  try {
    if (flags.dataFile === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of ctx.io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      text = Buffer.concat(chunks).toString('utf8');
    } else text = await readFile(resolve(ctx.cwd, flags.dataFile), 'utf8');
  } catch (error) {
    // A FIFO or device is refused by name (quick-fs reads regular files only): it would block or never end.
    throw new UsageError(`--data-file ${sanitize(flags.dataFile)}: cannot read it: ${whyUnreadable(error)}`);
  }
  const lineCounter = new LineCounter();
  try {
    const doc = parseDocument(text, { lineCounter });
    // A warning (an unknown tag) too: read silently, `!foo 3` would send the text "3".
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem) throw problem;
    const inexact = firstInexactYamlNumber(doc, doc);
    if (inexact) {
      const { line, col } = lineCounter.linePos(inexact.offset);
      throw new InvalidInputError(`--data-file ${flags.dataFile}:${line}:${col}: ${inexact.reason}`, { details: [EXACT_HINT] });
    }
    const excess = aliasExcess(doc);
    if (excess) {
      const { line, col } = lineCounter.linePos(excess.offset);
      throw new InvalidInputError(`--data-file ${flags.dataFile}:${line}:${col}: ${excess.message}`);
    }
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof InvalidInputError) throw error;
    throw new InvalidInputError(`--data-file ${flags.dataFile}: ${(error as Error).message.split('\n')[0]!.replace(/:$/, '')}`);
  }
  if (!isObject(value))
    throw new InvalidInputError(
      `--data-file ${flags.dataFile}: must hold an object (key: value pairs), not ${Array.isArray(value) ? 'a list' : 'a single value'}`,
    );
  return value;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
