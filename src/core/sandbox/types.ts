/**
 * Types of the local sandbox: its options, its handle, and the state it keeps (and persists).
 * The state never holds a token: clients are identified by a hash of their token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface SandboxQuota {
  /** Requests allowed per client per window. */
  limit: number;
  windowMs: number;
}

export interface SandboxOptions {
  /** Accepted credentials; default ['sandbox']. */
  tokens?: string[];
  /** Persist the state as JSON here (each change appended to a journal beside it; see data-file.ts); in memory otherwise. */
  dataFile?: string;
  /** Per-client rate quota (fixed window); none by default. */
  quota?: SandboxQuota;
  /** Delay before each service request is answered. */
  latencyMs?: number;
  /** Share (0..1) of service requests answered with a random 500 or 503, for fault drills. */
  failRate?: number;
  /** Seed of the fault drill's random numbers, so a drill is repeatable. */
  seed?: number;
  /** Largest request body accepted, in bytes; larger ones get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Receives one line per request (`POST /jobs 201 3ms`); never a token. */
  log?: (line: string) => void;
  /** Told of each failure answered 500 `internal` (the embedded sandbox shows its process why, see embedded.ts). */
  onInternalError?: (error: unknown) => void;
  /** Clock in epoch milliseconds; injectable so activity and quotas are testable. */
  now?: () => number;
}

export interface Sandbox {
  /**
   * Binds only to `host` (use 127.0.0.1 unless you mean to expose it); port 0 picks a free one.
   * `unref`: the server and its connections do not keep the process alive (embedded mode).
   */
  listen(port: number, host: string, options?: { unref?: boolean }): Promise<{ baseUrl: string }>;
  close(): Promise<void>;
  /** The request handler, for mounting on a server of your own. */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** A deep copy of the state, for tests. */
  state(): SandboxState;
  /**
   * With a data file: when the process exits, fold the journal into the file (one synchronous try
   * at the lock), so the file at rest is plain JSON. For an embedded sandbox, which is never closed.
   */
  compactOnExit(): void;
}

/** One job application received by an advert (simulated, or created through the fixture route). */
export interface StoredApplication {
  id: string;
  createdAt: number;
  source: 'simulated' | 'fixture';
  /** Set by the first recruiter_view, recruiter_like or recruiter_reject. */
  viewed: boolean;
  liked: boolean;
  rejected: boolean;
}

export interface StoredAdvert {
  /** Short hash of the owning client's token. */
  owner: string;
  reference: string;
  /** The advert as created, with updates merged in. */
  advert: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  /** Unique per creation, so a re-created advert gets new application ids. */
  serial: number;
  /** How many simulated applications have been materialized so far. */
  simulated: number;
  /** Applications received in all (simulated and fixture): the statistics count these, not the records kept. */
  received: number;
  /** Of those, created through the fixture route. */
  fixtures: number;
  /** Of those, not yet viewed by the recruiter. */
  unviewed: number;
  /** The newest application records (at most MAX_KEPT_APPLICATIONS; events for older ones get 404). */
  applications: StoredApplication[];
}

export interface StoredEvent {
  owner: string;
  applicationId: string;
  reference: string;
  kind: string;
  data?: Record<string, unknown>;
  at: string;
  /** False for a repeated recruiter_view, which the service ignores. */
  counted: boolean;
}

export interface SandboxState {
  version: 1;
  nextSerial: number;
  adverts: StoredAdvert[];
  events: StoredEvent[];
}

/** What one request was answered with, as `GET /_sandbox/requests` lists it. */
export interface RecordedRequest {
  method: string;
  path: string;
  status: number;
  /** The JSON body; null when there was none, it was not read (refused before) or not kept. */
  body: unknown;
  /** Set when the body was too large to keep: how many bytes it had. */
  body_truncated?: true;
  body_bytes?: number;
  at: string;
}

/** A handler's answer: status, JSON body (undefined for an empty body) and extra headers. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
