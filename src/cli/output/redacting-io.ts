/**
 * The last guard between a secret and the terminal: every write to stdout and stderr has the
 * service token replaced by `***`, wherever it came from (JOBS_TOKEN, a token file, a profile, the
 * store of `jobs login`) and whatever carried it there (a dry run's body, an error message, --json,
 * a trace). The token is known only once the settings are resolved; until then nothing is hidden.
 *
 * Only tokens long enough to tell from ordinary words are hidden (MIN_SEARCHED_TOKEN_LENGTH): the
 * sandbox's token is the word `sandbox`, which must stay readable in every other sentence.
 */
import type { Io, OutStream } from '../context.js';
import { MIN_SEARCHED_TOKEN_LENGTH } from '../../core/util/token-text.js';

export class Secrets {
  private readonly values: string[] = [];

  /** Hides `value` from now on (trimmed; ignored when short or empty). */
  add(value: string | undefined): void {
    const text = value?.trim() ?? '';
    if (text.length >= MIN_SEARCHED_TOKEN_LENGTH && !this.values.includes(text)) this.values.push(text);
  }

  redact(text: string): string {
    for (const value of this.values) if (text.includes(value)) text = text.split(value).join('***');
    return text;
  }

  get empty(): boolean {
    return this.values.length === 0;
  }
}

/**
 * The stream with `write` redacting; every other property is the stream's own (methods bound to it,
 * so a spinner or a 'resize' listener works as before). A hook installed on `write` (ora wraps it
 * to keep its line below other output) stays on this layer, above the redaction: the hook's call
 * of the write it replaced comes back here and goes out redacted, never round in a loop.
 */
function redacting(stream: OutStream, secrets: Secrets): OutStream {
  const base = (stream.write as (...args: unknown[]) => unknown).bind(stream);
  const write = (chunk: unknown, ...rest: unknown[]): unknown => {
    if (!secrets.empty) {
      if (typeof chunk === 'string') chunk = secrets.redact(chunk);
      else if (chunk instanceof Uint8Array) {
        const text = Buffer.from(chunk).toString('utf8');
        const hidden = secrets.redact(text);
        if (hidden !== text) chunk = hidden;
      }
    }
    return base(chunk, ...rest);
  };
  let hooked: unknown;
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'write') return hooked ?? write;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, property, value) {
      if (property === 'write') {
        hooked = value === write ? undefined : value;
        return true;
      }
      return Reflect.set(target, property, value, target);
    },
  });
}

/** The run's streams, redacting `secrets` on stdout and stderr. */
export function redactingIo(io: Io, secrets: Secrets): Io {
  const stdout = redacting(io.stdout, secrets);
  const stderr = redacting(io.stderr, secrets);
  return {
    get stdin() {
      return io.stdin;
    },
    stdout,
    stderr,
  };
}
