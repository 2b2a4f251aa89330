/**
 * A minimal language-server client over stdio (Content-Length framing, JSON-RPC 2.0), enough to
 * drive a real server the way an editor does: initialize, open documents, collect diagnostics.
 * Every wait is bounded; close() ends the server.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  message: string;
  severity?: number;
  source?: string;
}

type Handler = (params: unknown) => unknown;

export class LspClient {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  private readonly diagnostics = new Map<string, Diagnostic[][]>();
  private readonly waiters: { uri: string; resolve: (d: Diagnostic[]) => void }[] = [];
  /** Answers to requests the server sends (workspace/configuration, ...). */
  readonly requestHandlers = new Map<string, Handler>();
  stderr = '';

  constructor(command: string, args: string[], cwd: string) {
    this.child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => (this.stderr += d));
  }

  private send(message: Record<string, unknown>): void {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }

  private read(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'))?.[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.dispatch(JSON.parse(body) as { id?: number; method?: string; params?: unknown; result?: unknown; error?: unknown });
    }
  }

  private dispatch(message: { id?: number; method?: string; params?: unknown; result?: unknown; error?: unknown }): void {
    if (message.method === undefined && message.id !== undefined) {
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
      return;
    }
    if (message.method !== undefined && message.id !== undefined) {
      // A request from the server: answer what we know, null otherwise (as editors do).
      const handler = this.requestHandlers.get(message.method);
      this.send({ id: message.id, result: handler ? handler(message.params) : null });
      return;
    }
    if (message.method === 'textDocument/publishDiagnostics') {
      const { uri, diagnostics } = message.params as { uri: string; diagnostics: Diagnostic[] };
      this.diagnostics.set(uri, [...(this.diagnostics.get(uri) ?? []), diagnostics]);
      for (const w of this.waiters.filter((x) => x.uri === uri)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(diagnostics);
      }
    }
  }

  request(method: string, params: unknown, timeoutMs = 20_000): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no answer in ${timeoutMs} ms\n${this.stderr}`)), timeoutMs);
      this.pending.set(id, (m) => {
        clearTimeout(timer);
        if (m.error) reject(new Error(`${method}: ${JSON.stringify(m.error)}`));
        else resolve(m.result);
      });
      this.send({ id, method, params });
    });
  }

  notify(method: string, params: unknown): void {
    this.send({ method, params });
  }

  /** The next diagnostics published for `uri` (or the first, when some came already and `fresh` is false). */
  diagnosticsFor(uri: string, timeoutMs = 20_000): Promise<Diagnostic[]> {
    const seen = this.diagnostics.get(uri);
    if (seen?.length) return Promise.resolve(seen.at(-1)!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} in ${timeoutMs} ms\n${this.stderr}`)), timeoutMs);
      this.waiters.push({
        uri,
        resolve: (d) => {
          clearTimeout(timer);
          resolve(d);
        },
      });
    });
  }

  async close(): Promise<void> {
    try {
      await this.request('shutdown', null, 5_000);
      this.notify('exit', null);
    } catch {
      // A server that does not answer is killed below.
    }
    const exited = new Promise((r) => this.child.once('exit', r));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3_000);
    if (this.child.exitCode === null) await exited;
    clearTimeout(timer);
  }
}
