/**
 * The local sandbox: a faithful emulator of the Job Advert Service over node:http, for trying
 * adverts and pipelines without touching production, and for end-to-end tests over real sockets.
 *
 * Each request goes through, in order: body read under a 1 MiB cap (413) -> route (404, 405) ->
 * for the service's routes: simulated latency -> credentials (401) -> quota (429) -> fault drill
 * (500/503) -> content type (415) and JSON (400) -> the endpoint. The `/_sandbox/` fixture routes
 * skip credentials, quota, latency and faults. Any exception becomes 500 and the server stays up.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { materializeApplications } from './activity.js';
import { SANDBOX_TIME_HEADER } from './clock.js';
import { createApplication, listAdverts, listEvents, listRequests, type FixtureRequest } from './fixtures.js';
import { MAX_REQUEST_BYTES, acceptableContentType, baseError, discardRest, parseJson, readBody, sendReply } from './http-io.js';
import { isJsonObject, type JsonObject } from './merge.js';
import { QuotaKeeper } from './quota.js';
import { seededRandom } from './random.js';
import { matchRoute, pathOf, type RouteMatch, type RouteName } from './routes.js';
import { createJob, deleteJob, jobStats, postEvent, updateJob, type ServiceRequest } from './service.js';
import { emptyState, fileStamp, loadState, ownerOf, saveState } from './store.js';
import type { RecordedRequest, Reply, Sandbox, SandboxOptions, SandboxState } from './types.js';

export type { Sandbox, SandboxOptions, SandboxState } from './types.js';

/** Requests kept for `GET /_sandbox/requests`; older ones are dropped. */
const MAX_RECORDED_REQUESTS = 1000;

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
  let state: SandboxState = dataFile ? loadState(dataFile) : emptyState();
  let stamp = dataFile ? fileStamp(dataFile) : undefined;
  let requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let server: Server | undefined;

  const persist = () => {
    if (!dataFile) return;
    saveState(dataFile, state);
    stamp = fileStamp(dataFile);
  };

  /** Picks up changes another process made to a shared data file (two `jobs --sandbox` runs). */
  const syncFromDisk = () => {
    if (!dataFile) return;
    const current = fileStamp(dataFile);
    if (current === stamp) return;
    state = loadState(dataFile);
    stamp = current;
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

  /** Applications that candidates have sent by now get ids before anything reads them. */
  const advanceActivity = (at: number): boolean => {
    let changed = false;
    for (const advert of state.adverts) changed = materializeApplications(advert, at) || changed;
    return changed;
  };

  async function respond(req: IncomingMessage, route: RouteMatch, noteBody: (body: unknown) => void): Promise<Reply | undefined> {
    const read = await readBody(req);
    if (!read.ok) {
      if (read.reason === 'aborted') return undefined;
      discardRest(req);
      return baseError(413, `too_long:${MAX_REQUEST_BYTES}`, { Connection: 'close' });
    }
    const parsed = parseJson(read.bytes);
    noteBody(parsed.ok ? (parsed.value ?? null) : null);

    if (route.kind === 'bad_path') return baseError(400, 'invalid');
    if (route.kind === 'not_found') return baseError(404, 'not_found');
    if (route.kind === 'method_not_allowed') return baseError(405, 'method_not_allowed', { Allow: route.allow.join(', ') });

    return dispatch(req, route, read.bytes, parsed);
  }

  async function dispatch(
    req: IncomingMessage,
    route: Extract<RouteMatch, { kind: 'route' }>,
    bytes: Buffer,
    parsed: ReturnType<typeof parseJson>,
  ): Promise<Reply> {
    const extraHeaders: Record<string, string> = {};
    const withHeaders = (reply: Reply): Reply => ({ ...reply, headers: { ...extraHeaders, ...reply.headers } });

    if (!route.fixture) {
      if (options.latencyMs && options.latencyMs > 0) await delay(options.latencyMs);
      const owner = clientOf(req);
      if (!owner) return baseError(401, 'unauthorized');
      if (quota) {
        const decision = quota.take(owner);
        Object.assign(extraHeaders, decision.headers);
        if (!decision.allowed) return withHeaders(baseError(429, 'quota_exceeded'));
      }
      if (failRate > 0 && random() < failRate) {
        return withHeaders(random() < 0.5 ? baseError(500, 'internal') : baseError(503, 'unavailable', { 'Retry-After': '1' }));
      }
      const body = payloadOf(route.name, req, bytes, parsed);
      if ('status' in body) return withHeaders(body);
      const handler = SERVICE_HANDLERS[route.name]!;
      syncFromDisk();
      const at = now();
      extraHeaders[SANDBOX_TIME_HEADER] = new Date(at).toISOString();
      let changed = advanceActivity(at);
      const reply = handler({ state, owner, now: at, params: route.params, body: body.value, changed: () => (changed = true) });
      if (changed) persist();
      return withHeaders(reply);
    }

    const body = payloadOf(route.name, req, bytes, parsed);
    if ('status' in body) return body;
    syncFromDisk();
    const at = now();
    let changed = advanceActivity(at);
    const fixture: FixtureRequest = { state, now: at, body: body.value, tokens, changed: () => (changed = true) };
    let reply: Reply;
    switch (route.name) {
      case 'fixture.applications':
        reply = createApplication(fixture);
        break;
      case 'fixture.requests':
        reply = listRequests(requests);
        break;
      case 'fixture.adverts':
        reply = listAdverts(state, at);
        break;
      case 'fixture.events':
        reply = listEvents(state);
        break;
      case 'fixture.reset':
        state = emptyState();
        requests = [];
        quota?.reset();
        changed = true;
        reply = { status: 200 };
        break;
      default:
        reply = baseError(404, 'not_found');
    }
    if (changed) persist();
    return reply;
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
    let recordedBody: unknown = null;
    let route: RouteMatch = { kind: 'not_found', fixture: false };
    const finish = (reply: Reply | undefined) => {
      const status = reply?.status ?? 499;
      if (reply) sendReply(res, reply);
      if (!route.fixture) {
        requests.push({ method, path, status, body: recordedBody, at: new Date(safeNow()).toISOString() });
        if (requests.length > MAX_RECORDED_REQUESTS) requests.splice(0, requests.length - MAX_RECORDED_REQUESTS);
      }
      logLine(`${method} ${path} ${reply ? status : 'aborted'} ${Math.round(performance.now() - started)}ms`);
    };
    const internal = (error: unknown) => {
      logLine(`internal error: ${error instanceof Error ? error.message : String(error)}`);
      finish(baseError(500, 'internal'));
    };
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
    state: () => structuredClone(state),
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
          const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve({ baseUrl: `http://${hostPart}:${address.port}` });
        });
      });
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const s = server;
      server = undefined;
      if (!s) return Promise.resolve();
      return new Promise((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      });
    },
  };
}
