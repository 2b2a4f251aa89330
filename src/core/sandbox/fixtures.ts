/**
 * The sandbox's own routes under `/_sandbox/` (not part of the service; no credentials needed):
 * create applications, inspect what was received and stored, and reset. Listings use snake_case
 * like the service's resources, and name clients by a short hash of their token, never the token.
 */
import { addError, isEmptyTree, type ErrorTree } from '../errors/tree.js';
import { materializeApplications, receiveApplication, statsFor } from './activity.js';
import { baseError, errorReply } from './http-io.js';
import type { JsonObject } from './merge.js';
import { statusForTree } from './service.js';
import type { SandboxStore } from './store.js';
import type { RecordedRequest, Reply, StoredAdvert } from './types.js';

export interface FixtureRequest {
  store: SandboxStore;
  now: number;
  body: JsonObject | undefined;
  /** Configured tokens and their clients, to check a `token` given in the body. */
  ownerByToken: ReadonlyMap<string, string>;
}

/** POST /_sandbox/applications {"reference", "token"?} -> 201 {"id"}. */
export function createApplication(r: FixtureRequest): Reply {
  const body = r.body ?? {};
  const tree: ErrorTree = {};
  const { reference, token } = body;
  if (reference === undefined) addError(tree, ['reference'], 'missing');
  else if (typeof reference !== 'string' || reference.trim() === '') addError(tree, ['reference'], 'invalid');
  if (token !== undefined && (typeof token !== 'string' || !r.ownerByToken.has(token))) addError(tree, ['token'], 'invalid');
  for (const key of Object.keys(body)) if (key !== 'reference' && key !== 'token') addError(tree, [key], 'unknown_field');
  if (!isEmptyTree(tree)) return errorReply(statusForTree(tree), tree);

  // Only the configured clients can hold adverts: look the reference up for each (or the one named).
  const owners = typeof token === 'string' ? [r.ownerByToken.get(token)!] : [...new Set(r.ownerByToken.values())];
  const candidates = owners.map((owner) => r.store.find(owner, reference as string)).filter((a) => a !== undefined);
  if (candidates.length === 0) return baseError(404, 'not_found');
  // Two clients hold this reference: the token says whose advert is meant.
  if (candidates.length > 1) return errorReply(400, { token: ['missing'] });
  const advert = candidates[0]!;
  materializeApplications(r.store, advert, r.now);
  const application = receiveApplication(r.store, advert, 'fixture', r.now);
  return { status: 201, body: { id: application.id } };
}

export function listRequests(requests: readonly RecordedRequest[]): Reply {
  return { status: 200, body: requests };
}

function advertView(a: StoredAdvert, now: number) {
  return {
    reference: a.reference,
    created_at: new Date(a.createdAt).toISOString(),
    updated_at: new Date(a.updatedAt).toISOString(),
    advert: a.advert,
    stats: statsFor(a, now),
    applications: a.applications.map((p) => ({ id: p.id, source: p.source, viewed: p.viewed, liked: p.liked, rejected: p.rejected })),
  };
}

/** GET /_sandbox/adverts -> {"<client hash>": [advert, ...]}: every advert, brought up to date first. */
export function listAdverts(r: FixtureRequest): Reply {
  const byClient: Record<string, ReturnType<typeof advertView>[]> = {};
  for (const a of r.store.all()) {
    materializeApplications(r.store, a, r.now);
    (byClient[a.owner] ??= []).push(advertView(a, r.now));
  }
  return { status: 200, body: byClient };
}

/** GET /_sandbox/events -> the events accepted (the newest MAX_EVENTS), oldest first. */
export function listEvents(store: SandboxStore): Reply {
  return {
    status: 200,
    body: store.listEvents().map((e) => ({
      client: e.owner,
      application_id: e.applicationId,
      reference: e.reference,
      kind: e.kind,
      data: e.data ?? null,
      counted: e.counted,
      at: e.at,
    })),
  };
}
