/**
 * A reader that goes away (`jobs sync adverts/ | head -1`, a terminal closed under the run) must not
 * end the run halfway: requests already sent have to be recorded and the lock released. Node reports
 * a write to a closed pipe (EPIPE; EIO for a terminal that hung up) as an 'error' event, which would
 * crash the process with a stack trace. Instead, writes to that stream are dropped from then on and
 * the run finishes with the exit code of its work.
 *
 * git and gh die of SIGPIPE there (exit 141): they only read, so stopping early loses nothing. A run
 * of jobs changes the service, so it carries on, like ripgrep, which ignores a broken pipe.
 */

/** Errors that mean nobody reads the stream any more: say nothing, there is nobody to tell. */
const READER_GONE = new Set(['EPIPE', 'EIO', 'ECONNRESET', 'ERR_STREAM_DESTROYED']);

const guarded = new WeakSet<NodeJS.WriteStream>();

/**
 * Patches `stream` in place (ora and readline write to the stream object they are given, so a
 * wrapper would miss their writes). `other` hears once about any other failure (a full disk under
 * `> out.json`), since the output that follows is lost; the warning names the tool as it was invoked (`tool`).
 */
export function dropWritesWhenClosed(stream: NodeJS.WriteStream, name: string, other: { write(text: string): unknown }, tool: string): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  let closed = false;
  const write = stream.write;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    warnOutputLost(error, name, other, tool);
  });
  stream.write = function (this: NodeJS.WriteStream, ...args: Parameters<NodeJS.WriteStream['write']>) {
    if (closed) return true;
    return write.apply(this, args as never);
  } as NodeJS.WriteStream['write'];
}

/** Says once, on `other`, that what goes to `name` is lost from now on; nothing when nobody reads it any more. */
export function warnOutputLost(error: NodeJS.ErrnoException, name: string, other: { write(text: string): unknown }, tool: string): void {
  if (!READER_GONE.has(error.code ?? ''))
    other.write(`${tool}: warning: cannot write to ${name} (${error.code ?? error.message}); the run goes on, its output there is lost\n`);
}
