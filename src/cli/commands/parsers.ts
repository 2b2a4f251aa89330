/** Option value parsers shared by commands; a bad value is a usage error (exit 2). */
import { InvalidArgumentError } from 'commander';

export function parseCount(min: number, max: number) {
  return (text: string): number => {
    if (!/^\d+$/.test(text)) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    const n = Number(text);
    if (n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}
