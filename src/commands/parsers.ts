/** Option value parsers shared by commands; a bad value is a usage error (exit 2). */
import { InvalidArgumentError } from 'commander';

export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) throw new InvalidArgumentError('expected a duration such as 30s, 500ms or 2m');
  const n = Number(m[1]);
  const ms = m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000;
  if (!(ms > 0) || ms > 3_600_000) throw new InvalidArgumentError('must be more than 0 and at most 1h');
  return Math.round(ms);
}

export function parseCount(min: number, max: number) {
  return (text: string): number => {
    if (!/^\d+$/.test(text)) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    const n = Number(text);
    if (n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}
