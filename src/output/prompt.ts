/** Questions on the terminal. Only called where `canPrompt(ctx)` holds; answers come from stdin. */
import { createInterface } from 'node:readline/promises';
import type { Context } from '../context.js';

export async function confirm(ctx: Context, question: string): Promise<boolean> {
  const rl = createInterface({ input: ctx.io.stdin as NodeJS.ReadableStream, output: ctx.io.stderr as NodeJS.WritableStream, terminal: true });
  try {
    const answer = await rl.question(`${question} [y/N] `, { signal: ctx.signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return false;
  } finally {
    rl.close();
  }
}
