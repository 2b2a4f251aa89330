/**
 * A question whose answer is not echoed (for a token). readline drives the terminal in raw mode and
 * echoes through its output stream; that stream shows the prompt, then swallows everything typed.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { Context } from '../context.js';
import { CancelledError } from '../../core/errors/failures.js';

export function promptHidden(ctx: Context, prompt: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      if (!muted) ctx.io.stderr.write(chunk.toString());
      callback();
    },
  });
  const rl = createInterface({ input: ctx.io.stdin as NodeJS.ReadableStream, output, terminal: true });
  return new Promise<string>((resolve, reject) => {
    let answered = false;
    const finish = (action: () => void) => {
      if (answered) return;
      answered = true;
      ctx.signal.removeEventListener('abort', onAbort);
      rl.close();
      ctx.io.stderr.write('\n');
      action();
    };
    const onAbort = () => finish(() => reject(new CancelledError('login cancelled; nothing was stored')));
    // Raw mode turns Ctrl-C into a keypress; readline reports it as SIGINT on the interface.
    rl.on('SIGINT', onAbort);
    rl.on('close', () => finish(() => resolve('')));
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    rl.question(prompt, (answer) => finish(() => resolve(answer)));
    muted = true;
  });
}
