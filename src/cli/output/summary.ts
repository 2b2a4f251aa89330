import type { Context, OutStream } from '../context.js';
import { useColor } from './color.js';

/** The styles the output uses. */
export interface Painter {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const same = (text: string) => text;
const PLAIN: Painter = { red: same, green: same, yellow: same, magenta: same, cyan: same, bold: same, dim: same };

let chalk: typeof import('chalk') | undefined;

/**
 * Loads chalk when colour will be used on stdout or stderr. Most runs (CI, pipes, files, NO_COLOR)
 * never colour anything, and they don't pay for loading it.
 */
export async function prepareColor(ctx: Pick<Context, 'env' | 'globals' | 'io'>): Promise<void> {
  if (chalk) return;
  if (useColor(ctx.io.stdout, ctx.env, ctx.globals.color) || useColor(ctx.io.stderr, ctx.env, ctx.globals.color)) chalk = await import('chalk');
}

/** A painter for a stream: chalk's colours where `useColor` allows (after prepareColor), else plain. */
export function paint(ctx: Pick<Context, 'env' | 'globals'>, stream: OutStream): Painter {
  if (!chalk || !useColor(stream, ctx.env, ctx.globals.color)) return PLAIN;
  return new chalk.Chalk({ level: 1 });
}
