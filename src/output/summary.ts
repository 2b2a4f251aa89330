import { Chalk, type ChalkInstance } from 'chalk';
import type { Context, OutStream } from '../context.js';
import { useColor } from './color.js';

/** A chalk instance for a stream, coloured only where `useColor` allows. */
export function paint(ctx: Pick<Context, 'env' | 'globals'>, stream: OutStream): ChalkInstance {
  return new Chalk({ level: useColor(stream, ctx.env, ctx.globals.color) ? 1 : 0 });
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
