/**
 * Settings as rows a person can read (`jobs config list`, `jobs doctor`) or a script can parse
 * (--json). A token appears only as "set, and from where", never in any form of its value.
 */
import { sanitize } from '../../core/util/sanitize.js';
import { describeSource, describeToken } from '../../core/config/describe.js';
import { formatDuration } from '../../core/config/duration.js';
import { isSoleReference } from '../../core/config/interpolate.js';
import type { ConfigLayer } from '../../core/config/load.js';
import { isPlainObject, type PlainObject } from '../../core/config/plain.js';
import type { ResolvedConfigWithHttp } from '../../core/config/resolve.js';
import type { SettingSource } from '../../core/config/types.js';
import { usesSandbox } from '../../core/config/sandbox-source.js';

type Env = Record<string, string | undefined>;

export interface SettingRow {
  key: string;
  /** The value for --json; null for a token (never shown) or an unset setting. */
  value: unknown;
  /** What a person sees in the value column. */
  shown: string;
  /** Undefined for an unset setting. */
  source: SettingSource | undefined;
  /** What a person sees in the source column. */
  from: string;
  /** Set for the token row: whether one was found. */
  secret?: { set: boolean };
}

/** The effective settings: what a command would use. */
export function effectiveRows(config: ResolvedConfigWithHttp, cwd: string, env: Env): SettingRow[] {
  const row = (key: string, value: string | number | boolean | undefined, source: SettingSource, shown?: string): SettingRow => ({
    key,
    value: value ?? null,
    shown: shown ?? (value === undefined ? '(not set)' : String(value)),
    source: value === undefined ? undefined : source,
    from: value === undefined ? '' : describeSource(source, cwd, env),
  });
  const token: SettingRow = {
    key: 'token',
    value: null,
    shown: describeToken(config.token?.source, cwd, env),
    source: config.token?.source,
    from: '',
    secret: { set: config.token !== undefined },
  };
  return [
    row('profile', config.profile.value, config.profile.source, config.profile.value ?? '(none)'),
    // --sandbox: the sandbox's URL is known once it listens; the row says where it came from.
    usesSandbox(config)
      ? { key: 'base_url', value: null, shown: '(the embedded sandbox)', source: config.baseUrl.source, from: describeSource(config.baseUrl.source, cwd, env) }
      : row('base_url', config.baseUrl.value, config.baseUrl.source),
    token,
    row('auth_scheme', config.authScheme.value, config.authScheme.source, config.authScheme.value === '' ? '(none: token sent alone)' : undefined),
    row('concurrency', config.concurrency.value, config.concurrency.source),
    row('timeout', formatDuration(config.timeoutMs.value), config.timeoutMs.source),
    row('retries', config.retries.value, config.retries.source),
    row('allow_insecure_http', config.allowInsecureHttp.value, config.allowInsecureHttp.source),
    ...(config.caFile ? [row('ca_file', config.caFile.value, config.caFile.source)] : []),
  ];
}

const EFFECTIVE_FILE_KEYS = ['profile', 'concurrency', 'timeout', 'retries', 'allow_insecure_http', '$schema'];

/** Every leaf the config files set (nearest file wins), with the file it came from. */
export function fileRows(layers: ConfigLayer[], cwd: string, env: Env): SettingRow[] {
  const rows = new Map<string, SettingRow>();
  // Farthest first, so nearer files overwrite.
  for (const layer of [...layers].reverse()) {
    const source: SettingSource = { kind: 'file', path: layer.path, key: '' };
    for (const [path, value] of leaves(layer.data, [])) {
      const key = path.join('.');
      // Top-level settings are already in the effective rows, with their own precedence.
      if (path.length === 1 && EFFECTIVE_FILE_KEYS.includes(key)) continue;
      const isToken = path.length === 3 && path[0] === 'profiles' && path[2] === 'token';
      const fileSource: SettingSource = { ...source, key };
      if (isToken) {
        const reference = typeof value === 'string' && isSoleReference(value);
        rows.set(key, {
          key,
          value: reference ? (value as string) : null,
          shown: reference ? (value as string) : '(set)',
          source: fileSource,
          from: describeSource(source, cwd, env),
          secret: { set: true },
        });
        continue;
      }
      rows.set(key, {
        key,
        value,
        shown: typeof value === 'string' ? value : JSON.stringify(value),
        source: fileSource,
        from: describeSource(source, cwd, env),
      });
    }
  }
  return [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function* leaves(value: unknown, path: string[]): Generator<[string[], unknown]> {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [key, item] of Object.entries(value as PlainObject)) yield* leaves(item, [...path, key]);
  } else if (path.length > 0) yield [path, value];
}

/** Aligned `key  value  source` lines; values from files are shown as data (no control characters). */
export function renderRows(rows: SettingRow[], indent = ''): string {
  const keyWidth = Math.max(...rows.map((r) => r.key.length));
  const valueWidth = Math.max(...rows.map((r) => (r.from ? clip(r.shown).length : 0)));
  return rows
    .map((r) => {
      // Rows without a source column (the token, unset settings) are short; they are never clipped.
      const line = r.from
        ? `${r.key.padEnd(keyWidth)}  ${clip(r.shown).padEnd(valueWidth)}  ${sanitize(r.from)}`
        : `${r.key.padEnd(keyWidth)}  ${sanitize(r.shown)}`;
      return `${indent}${line.trimEnd()}\n`;
    })
    .join('');
}

/** JSON form of the rows: tokens carry only whether they are set and where from. */
export function rowsJson(rows: SettingRow[]): Array<Record<string, unknown>> {
  return rows.map((r) =>
    r.secret
      ? {
          key: r.key,
          set: r.secret.set,
          ...(r.value !== null ? { value: r.value } : {}),
          source: r.source ?? null,
          from: r.from || (r.source ? describeFrom(r) : null),
        }
      : { key: r.key, value: r.value, source: r.source ?? null, from: r.from || null },
  );
}

function describeFrom(row: SettingRow): string | null {
  const m = /^\(set, from (.*)\)$/.exec(row.shown);
  return m ? m[1]! : null;
}

const MAX_VALUE = 60;

function clip(text: string): string {
  const clean = sanitize(text);
  return clean.length > MAX_VALUE ? `${clean.slice(0, MAX_VALUE - 1)}…` : clean;
}
