/**
 * The five endpoints of the Job Advert Service, with the spec's semantics, over the sandbox state.
 * Validation is the CLI's own (same JSON Schemas, same identifiers), so a request the CLI accepts
 * locally is accepted here and a rejection reads the same.
 *
 * Ownership: every advert belongs to the client (token) that created it. References are a
 * per-client namespace: another client gets 404 for it, exactly as for a reference that does not
 * exist (the spec does not distinguish the two), and may create the same reference for itself
 * without hearing `taken` — otherwise `taken` would reveal that another client's advert exists.
 */
import { addError, flattenTree, isEmptyTree, type ErrorTree } from '../errors/tree.js';
import { validateAdvert, validateEventPayload } from '../validation/validate.js';
import { markViewed, materializeApplications, statsFor } from './activity.js';
import { baseError, errorReply } from './http-io.js';
import { isJsonObject, mergeUpdate, type JsonObject } from './merge.js';
import type { SandboxStore } from './store.js';
import type { Reply } from './types.js';

/** One request to an endpoint. Changes go through `store`, which records them to be saved. */
export interface ServiceRequest {
  store: SandboxStore;
  /** The calling client's short hash. */
  owner: string;
  now: number;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
  /** The JSON body (an object, or undefined when there was none). */
  body: JsonObject | undefined;
}

const NOT_FOUND = (): Reply => baseError(404, 'not_found');

/** 400 when a required parameter is missing (the spec's malformed request), else 422. */
export function statusForTree(tree: ErrorTree): 400 | 422 {
  return flattenTree(tree).some((e) => e.message === 'missing') ? 400 : 422;
}

function rejected(tree: ErrorTree): Reply {
  return errorReply(statusForTree(tree), tree);
}

export function createJob(r: ServiceRequest): Reply {
  const body = r.body ?? {};
  const tree = validateAdvert(body, 'create');
  const reference = body.reference;
  if (typeof reference === 'string' && r.store.find(r.owner, reference)) addError(tree, ['reference'], 'taken');
  if (!isEmptyTree(tree)) return rejected(tree);
  const advert = {
    owner: r.owner,
    reference: reference as string,
    advert: structuredClone(body),
    createdAt: r.now,
    updatedAt: r.now,
    serial: r.store.nextSerial,
    simulated: 0,
    received: 0,
    fixtures: 0,
    unviewed: 0,
    applications: [],
  };
  r.store.add(advert);
  materializeApplications(r.store, advert, r.now);
  return { status: 201 };
}

export function updateJob(r: ServiceRequest): Reply {
  const reference = r.params.reference!;
  const stored = r.store.find(r.owner, reference);
  if (!stored) return NOT_FOUND();
  const { reference: given, ...changes } = r.body ?? {};
  const tree = validateAdvert(changes, 'update');
  // The reference is immutable: repeating the path's reference is harmless, changing it is not.
  if (r.body && 'reference' in r.body && given !== reference) addError(tree, ['reference'], 'invalid');
  if (!isEmptyTree(tree)) return rejected(tree);
  const merged = mergeUpdate(stored.advert, changes);
  // Rules across fields (a US, CA or MX location needs a state) hold for the advert as merged.
  // The request itself was well-formed, so this is 422 even for `missing`.
  const after = validateAdvert(merged, 'create');
  if (!isEmptyTree(after)) return errorReply(422, after);
  stored.advert = merged;
  stored.updatedAt = r.now;
  materializeApplications(r.store, stored, r.now);
  r.store.touched(stored);
  return { status: 200 };
}

export function deleteJob(r: ServiceRequest): Reply {
  if (!r.store.remove(r.owner, r.params.reference!)) return NOT_FOUND();
  return { status: 200 };
}

/** Reading statistics brings this one advert's simulated candidates up to date (and saves them, so their ids can be used). */
export function jobStats(r: ServiceRequest): Reply {
  const stored = r.store.find(r.owner, r.params.reference!);
  if (!stored) return NOT_FOUND();
  materializeApplications(r.store, stored, r.now);
  return { status: 200, body: statsFor(stored, r.now) };
}

export function postEvent(r: ServiceRequest): Reply {
  const found = r.store.findApplication(r.owner, r.params.id!);
  if (!found) return NOT_FOUND();
  const body = r.body ?? {};
  const tree = validateEventPayload(body);
  if (!isEmptyTree(tree)) return rejected(tree);
  const { application, advert } = found;
  const kind = body.kind as string;
  // Only the first recruiter_view counts; any of the three kinds means the recruiter has seen it.
  const firstSeen = markViewed(r.store, advert, application);
  const counted = kind !== 'recruiter_view' || firstSeen;
  if (kind === 'recruiter_like') application.liked = true;
  if (kind === 'recruiter_reject') application.rejected = true;
  r.store.addEvent({
    owner: r.owner,
    applicationId: application.id,
    reference: advert.reference,
    kind,
    ...(isJsonObject(body.data) ? { data: body.data } : {}),
    at: new Date(r.now).toISOString(),
    counted,
  });
  return { status: 200 };
}
