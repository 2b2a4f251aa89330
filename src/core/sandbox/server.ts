/**
 * The local sandbox: a faithful emulator of the Job Advert Service over node:http, for trying
 * adverts and pipelines without touching production, and for end-to-end tests over real sockets.
 *
 * Each request goes through, in order: route (404, 405) -> for the service's routes: simulated
 * latency -> credentials (401) -> quota (429) -> fault drill (500/503) -> body read under a size cap
 * (413) -> content type (415) and JSON, nesting depth included (400) -> the endpoint, under the data
 * file's lock when there is one. The `/_sandbox/` fixture routes skip credentials, quota, latency
 * and faults. Any exception becomes 500 and the server stays up. What it remembers of requests is
 * bounded (see request-log.ts).
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SANDBOX_TIME_HEADER } from './clock.js';
import { createApplication, listAdverts, listEvents, listRequests, type FixtureRequest } from './fixtures.js';
import { MAX_REQUEST_BYTES, acceptableContentType, baseError, discardRest, parseJson, readBody, sendReply } from './http-io.js';
import { isJsonObject, type JsonObject } from './merge.js';
import { QuotaKeeper } from './quota.js';
import { seededRandom } from './random.js';
import { matchRoute, pathOf, type RouteMatch, type RouteName } from './routes.js';
import { createJob, deleteJob, jobStats, postEvent, updateJob, type ServiceRequest } from './service.js';
import { DataFile, journalPathFor } from './data-file.js';
import { tryWithLockSync, withLock } from '../storage/lock.js';
import { RequestLog, type SeenBody } from './request-log.js';
import { hostRule, refusedBecause, type HostRule } from './origin-guard.js';
import { SandboxStore, ownerOf } from './store.js';
import type { Reply, Sandbox, SandboxOptions } from './types.js';

export type { Sandbox, SandboxOptions, SandboxState } from './types.js';

const SERVICE_HANDLERS: Partial<Record<RouteName, (r: ServiceRequest) => Reply>> = {
  create: createJob,
  update: updateJob,
  delete: deleteJob,
  stats: jobStats,
  event: postEvent,
};

/** Routes whose request carries a JSON payload. */
const PAYLOAD_ROUTES = new Set<RouteName>(['create', 'update', 'event', 'fixture.applications']);

export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const tokens = options.tokens && options.tokens.length > 0 ? [...options.tokens] : ['sandbox'];
  const ownerByToken = new Map(tokens.map((t) => [t, ownerOf(t)]));
  const now = options.now ?? Date.now;
  const failRate = Math.min(1, Math.max(0, options.failRate ?? 0));
  const random = seededRandom(options.seed ?? Date.now());
  const quota = options.quota ? new QuotaKeeper(options.quota, now) : undefined;
  const dataFile = options.dataFile;
  const data = dataFile ? new DataFile(dataFile) : undefined;
  let store = data ? data.load() : new SandboxStore();
  /** Set when a change failed half-way: the state in memory must be read again from the file. */
  let stale = false;
  const requests = new RequestLog();
  const maxBodyBytes = options.maxBodyBytes ?? MAX_REQUEST_BYTES;
  const timers = new Set<NodeJS.Timeout>();
  let server: Server | undefined;
  /** Set when listening: the Host names it answers (see origin-guard.ts). */
  let hosts: HostRule | undefined;

  /** Picks up changes another process made to a shared data file (two `jobs --sandbox` runs); under the lock. */
  const syncFromDisk = () => {
    if (!data) return;
    store = stale ? data.load() : data.refresh(store);
    stale = false;
  };

  /** Folds the journal into the snapshot, so the file at rest is plain JSON of everything; under the lock. */
  const compact = () => {
    if (!data) return;
    syncFromDisk();
    if (data.journaled) data.compact(store);
  };

  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  /** The client behind the Authorization header: `Bearer <token>` or the bare token. */
  const clientOf = (req: IncomingMessage): string | undefined => {
    const header = req.headers.authorization?.trim();
    if (!header) return undefined;
    const bearer = /^bearer\s+(\S+)$/i.exec(header);
    return ownerByToken.get(bearer ? bearer[1]! : header);
  };

  /**
   * Everything that can refuse a request without its body (route, credentials, quota, faults) is
   * checked before the body is read, so a client without a valid token cannot make the sandbox
   * buffer anything; the unread body is drained and dropped.
   */
  async function respond(req: IncomingMessage, route: RouteMatch, noteBody: (body: SeenBody) => void): Promise<Reply | undefined> {
    const refuse = (reply: Reply): Reply => {
      discardRest(req);
      return reply;
    };
    if (route.kind === 'bad_path') return refuse(baseError(400, 'invalid'));
    if (route.kind === 'not_found') return refuse(baseError(404, 'not_found'));
    if (route.kind === 'method_not_allowed') return refuse(baseError(405, 'method_not_allowed', { Allow: route.allow.join(', ') }));

    const extraHeaders: Record<string, string> = {};
    const withHeaders = (reply: Reply): Reply => ({ ...reply, headers: { ...extraHeaders, ...reply.headers } });
    let owner: string | undefined;
    if (!route.fixture) {
      if (options.latencyMs && options.latencyMs > 0) await delay(options.latencyMs);
      owner = clientOf(req);
      if (!owner) return refuse(baseError(401, 'unauthorized'));
      if (quota) {
        const decision = quota.take(owner);
        Object.assign(extraHeaders, decision.headers);
        if (!decision.allowed) return refuse(withHeaders(baseError(429, 'quota_exceeded')));
      }
      if (failRate > 0 && random() < failRate) {
        return refuse(withHeaders(random() < 0.5 ? baseError(500, 'internal') : baseError(503, 'unavailable', { 'Retry-After': '1' })));
      }
    }

    const read = await readBody(req, maxBodyBytes);
    if (!read.ok) {
      if (read.reason === 'aborted') return undefined;
      discardRest(req);
      return withHeaders(baseError(413, `too_long:${maxBodyBytes}`, { Connection: 'close' }));
    }
    const parsed = parseJson(read.bytes);
    noteBody({ bytes: read.bytes.length, value: parsed.ok ? (parsed.value ?? null) : null });
    const body = payloadOf(route.name, req, read.bytes, parsed);
    if ('status' in body) return withHeaders(body);

    if (owner !== undefined) {
      const handler = SERVICE_HANDLERS[route.name]!;
      const serviceOwner = owner;
      return withHeaders(
        await transact((at) => {
          // The sandbox's own clock (fast-forwarded for demos): stats snapshots are taken at it.
          extraHeaders[SANDBOX_TIME_HEADER] = new Date(at).toISOString();
          return handler({ store, owner: serviceOwner, now: at, params: route.params, body: body.value });
        }),
      );
    }
    return transact((at) => fixture(route.name, { store, now: at, body: body.value, ownerByToken }));
  }

  function fixture(name: RouteName, r: FixtureRequest): Reply {
    switch (name) {
      case 'fixture.applications':
        return createApplication(r);
      case 'fixture.requests':
        return listRequests(requests.list());
      case 'fixture.adverts':
        return listAdverts(r);
      case 'fixture.events':
        return listEvents(r.store);
      case 'fixture.reset':
        r.store.reset();
        requests.clear();
        quota?.reset();
        return { status: 200 };
      default:
        return baseError(404, 'not_found');
    }
  }

  /**
   * One request's read-change-write of the state. With a data file it runs under the file's lock,
   * catches up with what other processes appended, and appends what it changed, so runs sharing
   * the file never overwrite each other's changes. Its cost follows what the request touches, not
   * how much the state holds. If anything throws, the state in memory may be half changed: it is
   * read again from the file next time.
   */
  function transact(work: (at: number) => Reply): Reply | Promise<Reply> {
    const run = (): Reply => {
      try {
        syncFromDisk();
        const reply = work(now());
        const changes = store.takeChanges();
        data?.append(store, changes);
        return reply;
      } catch (error) {
        stale = true;
        store.takeChanges();
        throw error;
      }
    };
    return dataFile ? withLock(dataFile, run) : run();
  }

  /** The JSON object a payload route carries (undefined when empty), or the reply refusing it. */
  function payloadOf(name: RouteName, req: IncomingMessage, bytes: Buffer, parsed: ReturnType<typeof parseJson>): Reply | { value: JsonObject | undefined } {
    if (!PAYLOAD_ROUTES.has(name) || bytes.length === 0) return { value: undefined };
    // The fixture routes are ours, not the service's: `curl -d` (form content type) is fine there.
    if (!name.startsWith('fixture.') && !acceptableContentType(req.headers['content-type'])) return baseError(415, 'invalid');
    if (!parsed.ok) return baseError(400, 'invalid');
    if (parsed.value === undefined) return { value: undefined };
    if (!isJsonObject(parsed.value)) return baseError(400, 'invalid');
    return { value: parsed.value };
  }

  /** A failing log sink (a closed stderr) must not fail the request. */
  const logLine = (line: string) => {
    try {
      options.log?.(line);
    } catch {
      // nothing sensible to do: the line is lost
    }
  };

  /** The injected clock for a timestamp that must not fail. */
  const safeNow = (): number => {
    try {
      return now();
    } catch {
      return Date.now();
    }
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    const path = pathOf(req.url ?? '/');
    let recordedBody: SeenBody | undefined;
    let route: RouteMatch = { kind: 'not_found', fixture: false };
    const finish = (reply: Reply | undefined) => {
      const status = reply?.status ?? 499;
      if (reply) sendReply(res, reply);
      if (!route.fixture) requests.add(method, path, status, recordedBody, new Date(safeNow()).toISOString());
      logLine(`${method} ${path} ${reply ? status : 'aborted'} ${Math.round(performance.now() - started)}ms`);
    };
    const internal = (error: unknown) => {
      logLine(`internal error: ${error instanceof Error ? error.message : String(error)}`);
      try {
        options.onInternalError?.(error);
      } catch {
        // the answer is still a 500
      }
      finish(baseError(500, 'internal'));
    };
    // Before anything else: a request from a web page (DNS rebinding, cross-origin) gets nothing.
    const refused = hosts ? refusedBecause(req.headers, hosts) : undefined;
    if (refused) {
      discardRest(req);
      sendReply(res, baseError(403, refused));
      logLine(`${method} ${path} 403 (${refused === 'host_not_allowed' ? 'Host not this sandbox' : 'cross-origin'})`);
      return;
    }
    try {
      route = matchRoute(method, req.url ?? '/');
      respond(req, route, (b) => (recordedBody = b))
        .then(finish, internal)
        // Last resort: answer if still possible, never crash the server.
        .catch(() => sendReply(res, baseError(500, 'internal')));
    } catch (error) {
      internal(error);
    }
  };

  return {
    handler,
    state: () => structuredClone(store.snapshot()),
    compactOnExit() {
      if (!dataFile) return;
      process.once('exit', () => {
        try {
          // Synchronous here: one try at the lock; if another run holds it, that run folds the journal in.
          tryWithLockSync(dataFile, compact);
        } catch {
          // The journal keeps every change: nothing is lost, the next run reads it.
        }
      });
    },
    listen(port, host, listenOptions = {}) {
      if (server) return Promise.reject(new Error('the sandbox is already listening'));
      const s = createServer(handler);
      server = s;
      return new Promise((resolve, reject) => {
        s.once('error', (error) => {
          server = undefined;
          reject(error);
        });
        s.listen({ port, host }, () => {
          if (listenOptions.unref) {
            // Embedded mode: neither the listener nor a kept-alive connection holds the process.
            s.unref();
            s.on('connection', (socket) => socket.unref());
          }
          const address = s.address() as AddressInfo;
          hosts = hostRule(host, address.address, address.port);
          const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve({ baseUrl: `http://${hostPart}:${address.port}` });
        });
      });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const s = server;
      server = undefined;
      if (s) {
        await new Promise<void>((resolve) => {
          s.close(() => resolve());
          s.closeAllConnections();
        });
      }
      // Only when there is a journal (the files may be gone: then there is nothing to fold in).
      if (dataFile && existsSync(journalPathFor(dataFile))) await withLock(dataFile, compact);
    },
  };
}
