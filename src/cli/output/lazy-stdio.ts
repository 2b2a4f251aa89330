/**
 * The process's stdout and stderr, made only when a run needs more than writing to them. Making
 * process.stdout or process.stderr loads Node's stream modules (node:stream, and node:net for a
 * pipe): some 15 M instructions, a fortieth of a `jobs validate` of one advert, which writes one
 * line to stderr. A write to a pipe, a socket, a regular file or /dev/null is written at once with
 * fs.writeSync instead: Node writes there synchronously too (on Linux and macOS), so the bytes and
 * their order are the same. Anything else makes the real stream, which takes over from then on: a
 * terminal (colour, width, spinners, prompts), any property but `write`, `isTTY` and `columns`, a
 * write that would block (EAGAIN), Windows.
 */
import { fstatSync, statSync, writeSync, type Stats } from 'node:fs';
import { dropWritesWhenClosed, warnOutputLost } from './closed-stream.js';

interface Writer {
  write(text: string): unknown;
}

const made: NodeJS.WriteStream[] = [];

/**
 * `fd`'s stream, made on demand; until then writes go straight to the file descriptor. A reader
 * that goes away or a failed write is handled as closed-stream.ts does for the real stream.
 */
export function lazyStdio(fd: 1 | 2, other: () => Writer, tool: string): NodeJS.WriteStream {
  const name = fd === 1 ? 'stdout' : 'stderr';
  let real: NodeJS.WriteStream | undefined;
  let direct: boolean | undefined;
  let closed = false;

  const stream = (): NodeJS.WriteStream => {
    if (real === undefined) {
      real = fd === 1 ? process.stdout : process.stderr;
      dropWritesWhenClosed(real, name, other(), tool);
      made.push(real);
    }
    return real;
  };
  // Written straight only to what is never a terminal; fstat once.
  const writesDirectly = (): boolean => {
    if (direct === undefined) {
      try {
        const stat = fstatSync(fd);
        direct = process.platform !== 'win32' && (stat.isFIFO() || stat.isSocket() || stat.isFile() || (stat.isCharacterDevice() && isDevNull(stat)));
      } catch {
        direct = false;
      }
    }
    return direct && real === undefined;
  };

  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding | (() => void), callback?: () => void): boolean => {
    const done = typeof encoding === 'function' ? encoding : callback;
    if (!writesDirectly()) return (stream().write as (...args: unknown[]) => boolean)(chunk, encoding, callback);
    if (!closed) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk;
      let at = 0;
      try {
        while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
      } catch (error) {
        const failure = error as NodeJS.ErrnoException;
        // A full pipe the other end has made non-blocking: the stream waits for it.
        if (failure.code === 'EAGAIN') return stream().write(bytes.subarray(at), done);
        closed = true;
        warnOutputLost(failure, name, other(), tool);
      }
    }
    if (done) process.nextTick(done);
    return true;
  };

  return new Proxy({} as NodeJS.WriteStream, {
    get(_target, property) {
      if (property === 'write') return write;
      if ((property === 'isTTY' || property === 'columns') && writesDirectly()) return property === 'isTTY' ? false : undefined;
      const target = stream();
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(_target, property, value) {
      return Reflect.set(stream(), property, value);
    },
    has(_target, property) {
      return Reflect.has(stream(), property);
    },
  });
}

/** /dev/null (`> /dev/null`, a child's ignored output) is a character device, as a terminal is, but never one. */
function isDevNull(stat: Stats): boolean {
  try {
    const devNull = statSync('/dev/null');
    return stat.rdev === devNull.rdev && stat.ino === devNull.ino;
  } catch {
    return false;
  }
}

/**
 * Resolves once what was written to the streams made so far has gone out, or they are gone (the
 * process can exit then: process.exit drops what a pipe has not taken yet). A write to a file fails
 * at once but reports it a tick later (`jobs schema > /dev/full`): look after that turn, so the
 * warning about lost output is written before the exit. Direct writes are done when they return.
 */
export function stdioDrained(): Promise<void> {
  return new Promise<void>((turn) => setImmediate(turn)).then(() => Promise.all(made.map(flushed))).then(() => undefined);
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((done) => {
    if (stream.destroyed || !stream.writableLength) return done();
    stream.once('close', done);
    stream.once('error', () => done());
    stream.write('', () => done());
  });
}
