/**
 * The sandbox's state in memory, indexed so that every request does a constant amount of work
 * however many adverts it holds: adverts by client and reference, applications by id. It also
 * records what each request changed, so a data file is appended to (data-file.ts) rather than
 * rewritten whole. What it keeps is bounded per advert (activity.ts caps the application records)
 * and in total for events (the newest MAX_EVENTS, within MAX_EVENT_BYTES).
 */
import { createHash } from 'node:crypto';
import type { SandboxState, StoredAdvert, StoredApplication, StoredEvent } from './types.js';

/** Events kept for `GET /_sandbox/events`; older ones are dropped (they were counted already). */
export const MAX_EVENTS = 10_000;
/** Event data can be large (up to the body limit): what is kept is bounded in bytes too. */
export const MAX_EVENT_BYTES = 8 * 1024 * 1024;

export function emptyState(): SandboxState {
  return { version: 1, nextSerial: 1, adverts: [], events: [] };
}

/** A client's identity in the state and in listings: a short hash of its token, never the token. */
export function ownerOf(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 12);
}

export function shortHash(...parts: (string | number)[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);
}

const keyOf = (owner: string, reference: string) => `${owner}\u0000${reference}`;

/** One change, as a data file's journal records it (a line of JSON). */
export type Change = { put: StoredAdvert } | { delete: { owner: string; reference: string } } | { event: StoredEvent } | { reset: true };

export class SandboxStore {
  nextSerial = 1;
  /** In creation order (a Map keeps insertion order), as the state's `adverts` list is. */
  private readonly adverts = new Map<string, StoredAdvert>();
  private readonly byApplication = new Map<string, StoredAdvert>();
  private events: { event: StoredEvent; cost: number }[] = [];
  /** Index of the oldest kept event in `events` (dropping from the front without shifting). */
  private eventsStart = 0;
  private eventBytes = 0;
  private pending: Change[] = [];
  private touchedAdverts = new Set<StoredAdvert>();

  static from(state: SandboxState): SandboxStore {
    const store = new SandboxStore();
    store.nextSerial = state.nextSerial;
    for (const advert of state.adverts) store.putAdvert(normalized(advert));
    for (const event of state.events) store.keepEvent(event);
    return store;
  }

  get size(): number {
    return this.adverts.size;
  }

  find(owner: string, reference: string): StoredAdvert | undefined {
    return this.adverts.get(keyOf(owner, reference));
  }

  all(): IterableIterator<StoredAdvert> {
    return this.adverts.values();
  }

  /** The application with this id, if the client `owner` (any client when undefined) may see it. */
  findApplication(owner: string | undefined, id: string): { advert: StoredAdvert; application: StoredApplication } | undefined {
    const advert = this.byApplication.get(id);
    if (!advert || (owner !== undefined && advert.owner !== owner)) return undefined;
    const application = advert.applications.find((a) => a.id === id);
    return application ? { advert, application } : undefined;
  }

  add(advert: StoredAdvert): void {
    this.nextSerial = Math.max(this.nextSerial, advert.serial + 1);
    this.putAdvert(advert);
    this.touched(advert);
  }

  remove(owner: string, reference: string): boolean {
    const advert = this.find(owner, reference);
    if (!advert) return false;
    this.dropAdvert(advert);
    this.touchedAdverts.delete(advert);
    this.pending.push({ delete: { owner, reference } });
    return true;
  }

  /** Records that `advert` changed (its fields or its applications), so it is saved. */
  touched(advert: StoredAdvert): void {
    this.touchedAdverts.add(advert);
  }

  /** Indexes an application record just added to `advert.applications`. */
  indexApplication(advert: StoredAdvert, application: StoredApplication): void {
    this.byApplication.set(application.id, advert);
  }

  /** Forgets an application record dropped from `advert.applications`. */
  unindexApplication(application: StoredApplication): void {
    this.byApplication.delete(application.id);
  }

  addEvent(event: StoredEvent): void {
    this.keepEvent(event);
    this.pending.push({ event });
  }

  listEvents(): StoredEvent[] {
    return this.events.slice(this.eventsStart).map((e) => e.event);
  }

  reset(): void {
    this.clear();
    this.pending = [{ reset: true }];
    this.touchedAdverts.clear();
  }

  /** The changes since the last call, in order (an advert changed several times is put once, last). */
  takeChanges(): Change[] {
    const changes = this.pending;
    for (const advert of this.touchedAdverts) if (this.find(advert.owner, advert.reference) === advert) changes.push({ put: advert });
    this.pending = [];
    this.touchedAdverts = new Set();
    return changes;
  }

  /** Applies a change read from a data file's journal (written by this or another process). */
  apply(change: Change): void {
    if ('put' in change) {
      const advert = normalized(change.put);
      const old = this.find(advert.owner, advert.reference);
      if (old) this.dropAdvert(old);
      this.nextSerial = Math.max(this.nextSerial, advert.serial + 1);
      this.putAdvert(advert);
    } else if ('delete' in change) {
      const old = this.find(change.delete.owner, change.delete.reference);
      if (old) this.dropAdvert(old);
    } else if ('event' in change) {
      this.keepEvent(change.event);
    } else if ('reset' in change) {
      this.clear();
    }
  }

  /** The state as the data file's snapshot and `Sandbox.state()` show it. */
  snapshot(): SandboxState {
    return { version: 1, nextSerial: this.nextSerial, adverts: [...this.adverts.values()], events: this.listEvents() };
  }

  private putAdvert(advert: StoredAdvert): void {
    this.adverts.set(keyOf(advert.owner, advert.reference), advert);
    for (const application of advert.applications) this.byApplication.set(application.id, advert);
  }

  private dropAdvert(advert: StoredAdvert): void {
    this.adverts.delete(keyOf(advert.owner, advert.reference));
    for (const application of advert.applications) {
      if (this.byApplication.get(application.id) === advert) this.byApplication.delete(application.id);
    }
  }

  private keepEvent(event: StoredEvent): void {
    const cost = JSON.stringify(event).length;
    this.events.push({ event, cost });
    this.eventBytes += cost;
    while (this.events.length - this.eventsStart > MAX_EVENTS || (this.eventBytes > MAX_EVENT_BYTES && this.events.length - this.eventsStart > 1)) {
      this.eventBytes -= this.events[this.eventsStart]!.cost;
      this.events[this.eventsStart++] = undefined as never;
    }
    // Compact the array once the dropped front is as long as what is kept.
    if (this.eventsStart > 1024 && this.eventsStart * 2 > this.events.length) {
      this.events = this.events.slice(this.eventsStart);
      this.eventsStart = 0;
    }
  }

  private clear(): void {
    this.nextSerial = 1;
    this.adverts.clear();
    this.byApplication.clear();
    this.events = [];
    this.eventsStart = 0;
    this.eventBytes = 0;
  }
}

/**
 * Fills in the counters a data file written before they existed lacks (from the records, which
 * were then complete), so older files keep working.
 */
function normalized(advert: StoredAdvert): StoredAdvert {
  const a = advert as Partial<StoredAdvert> & StoredAdvert;
  if (!Array.isArray(a.applications)) a.applications = [];
  if (typeof a.received !== 'number') a.received = a.applications.length;
  if (typeof a.fixtures !== 'number') a.fixtures = a.applications.filter((p) => p.source === 'fixture').length;
  if (typeof a.unviewed !== 'number') a.unviewed = a.applications.filter((p) => !p.viewed).length;
  if (typeof a.simulated !== 'number') a.simulated = a.applications.filter((p) => p.source === 'simulated').length;
  return a;
}
