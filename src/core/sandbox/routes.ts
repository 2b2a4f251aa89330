/**
 * Route matching. The path is split on `/` before each segment is percent-decoded, so a reference
 * such as `ACME/2024 #1` (sent as `ACME%2F2024%20%231`) is one segment.
 */

export type RouteName =
  'create' | 'update' | 'delete' | 'stats' | 'event' | 'fixture.applications' | 'fixture.requests' | 'fixture.adverts' | 'fixture.events' | 'fixture.reset';

export type RouteMatch =
  | { kind: 'route'; name: RouteName; params: Record<string, string>; fixture: boolean }
  | { kind: 'method_not_allowed'; allow: string[]; fixture: boolean }
  | { kind: 'not_found'; fixture: boolean }
  | { kind: 'bad_path'; fixture: boolean };

/** The reserved prefix of the sandbox's own routes; not part of the service. */
export const FIXTURE_PREFIX = '/_sandbox/';

interface RouteDef {
  pattern: string[];
  methods: Partial<Record<string, RouteName>>;
}

const ROUTES: RouteDef[] = [
  { pattern: ['jobs'], methods: { POST: 'create' } },
  { pattern: ['jobs', ':reference'], methods: { PUT: 'update', DELETE: 'delete' } },
  { pattern: ['jobs', ':reference', 'stats'], methods: { GET: 'stats' } },
  { pattern: ['job_applications', ':id', 'events'], methods: { POST: 'event' } },
  { pattern: ['_sandbox', 'applications'], methods: { POST: 'fixture.applications' } },
  { pattern: ['_sandbox', 'requests'], methods: { GET: 'fixture.requests' } },
  { pattern: ['_sandbox', 'adverts'], methods: { GET: 'fixture.adverts' } },
  { pattern: ['_sandbox', 'events'], methods: { GET: 'fixture.events' } },
  { pattern: ['_sandbox', 'reset'], methods: { POST: 'fixture.reset' } },
];

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

export function matchRoute(method: string, url: string): RouteMatch {
  const path = pathOf(url);
  const fixture = path.startsWith(FIXTURE_PREFIX);
  if (!path.startsWith('/')) return { kind: 'not_found', fixture };
  let segments: string[];
  try {
    segments = path
      .slice(1)
      .split('/')
      .map((s) => decodeURIComponent(s));
  } catch {
    return { kind: 'bad_path', fixture };
  }
  for (const route of ROUTES) {
    if (route.pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = route.pattern.every((part, i) => {
      const segment = segments[i]!;
      if (part.startsWith(':')) {
        params[part.slice(1)] = segment;
        return segment !== '';
      }
      return part === segment;
    });
    if (!matches) continue;
    const name = route.methods[method];
    if (name) return { kind: 'route', name, params, fixture };
    return { kind: 'method_not_allowed', allow: Object.keys(route.methods), fixture };
  }
  return { kind: 'not_found', fixture };
}
