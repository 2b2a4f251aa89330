/** Small output and input helpers shared by the commands. */
import { jsonText } from './json-output.js';
import type { Context } from '../context.js';
import { UsageError } from '../../core/errors/failures.js';
import { sanitize } from '../../core/util/sanitize.js';

/** JSON is the one format each command shapes itself (the registry's entry has no writer): asked here, not by name. */
export function isJson(ctx: Context): boolean {
  return ctx.globals.output === 'json';
}

/** One JSON document on stdout. */
export function writeJson(ctx: Context, document: object): void {
  ctx.io.stdout.write(jsonText(document, 2));
}

/** Warnings go to stderr once, unless --quiet. */
export function writeWarnings(ctx: Context, warnings: readonly string[]): void {
  if (ctx.globals.quiet) return;
  for (const warning of warnings) ctx.io.stderr.write(`${ctx.name}: warning: ${sanitize(warning)}\n`);
}

/** A note for people (not a result): stderr, unless --quiet or --json. */
export function writeNote(ctx: Context, text: string): void {
  if (ctx.globals.quiet || isJson(ctx)) return;
  ctx.io.stderr.write(`${text}\n`);
}

const MAX_STDIN = 64 * 1024;

/** All of stdin as text, bounded (a token is short; a runaway pipe is not read forever). */
export async function readAllStdin(ctx: Context): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.io.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_STDIN) throw new UsageError(`stdin holds more than ${MAX_STDIN / 1024} KiB; expected just a token`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
