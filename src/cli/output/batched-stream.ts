/**
 * Output of a run that reports thousands of results a second: what is written in one turn of the
 * event loop goes out as one write. A line per write cost a system call per event (stdout to a file
 * or pipe is written synchronously), a tenth of the CPU time of `jobs events`; a reader still sees
 * each result the moment its turn ends.
 */
import type { OutStream } from '../context.js';

/** Past this many characters the gathered text is written at once, so a long turn holds little. */
const MAX_HELD_CHARS = 64 * 1024;

export interface BatchedStream extends OutStream {
  /** Writes what is held; call before anything else writes to the stream underneath, and at the end. */
  flush(): void;
}

export function batchedStream(out: OutStream): BatchedStream {
  let held: string[] = [];
  let chars = 0;
  let scheduled = false;
  const flush = () => {
    if (held.length === 0) return;
    const text = held.join('');
    held = [];
    chars = 0;
    out.write(text);
  };
  return {
    isTTY: out.isTTY,
    columns: out.columns,
    write(chunk: string) {
      held.push(chunk);
      chars += chunk.length;
      if (chars >= MAX_HELD_CHARS) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          flush();
        });
      }
      return true;
    },
    flush,
  };
}
