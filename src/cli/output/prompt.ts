/** Questions on the terminal. Only called where `canPrompt(ctx)` holds; answers come from stdin. */
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { Context } from '../context.js';

export async function confirm(ctx: Context, question: string): Promise<boolean> {
  // readline wants a stream; the context hands out a writer, which may be a test's fake.
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      ctx.io.stderr.write(chunk.toString());
      done();
    },
  });
  const rl = createInterface({ input: ctx.io.stdin as NodeJS.ReadableStream, output, terminal: true });
  try {
    const answer = await rl.question(`${question} [y/N] `, { signal: ctx.signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return false;
  } finally {
    rl.close();
  }
}
