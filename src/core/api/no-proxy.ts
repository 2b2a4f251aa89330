/**
 * NO_PROXY as curl and Go's net/http read it: a comma- (or space-) separated list of
 * - `*`: no proxy for any host;
 * - a host name, `example.com`, which matches that name and every name under it; `.example.com` and
 *   `*.example.com` mean the same (curl's reading: the leading dot is dropped);
 * - an IP address (`10.1.2.3`, `::1`, `[::1]`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`), which match
 *   a service URL written with an address in it (names are not resolved to compare, as in Go);
 * - any of these with `:port`, which then matches that port only.
 * Case does not matter; a trailing dot on a name is ignored.
 */
import { isIP } from 'node:net';

interface Entry {
  /** As written, for `doctor`. */
  text: string;
  /** `*` */
  all?: boolean;
  /** A lower-case name without leading or trailing dot. */
  domain?: string;
  /** An address range (a single address is a /32 or /128). */
  range?: { bytes: Uint8Array; bits: number };
  port?: number;
}

/** The entry of NO_PROXY that matches `hostname`:`port`, as written; undefined when none does. */
export function noProxyMatch(list: string, hostname: string, port: number): string | undefined {
  const host = normaliseHost(hostname);
  const address = isIP(host) ? addressBytes(host) : undefined;
  for (const entry of parseNoProxy(list)) {
    if (entry.port !== undefined && entry.port !== port) continue;
    if (entry.all) return entry.text;
    if (entry.domain !== undefined && address === undefined && (host === entry.domain || host.endsWith(`.${entry.domain}`))) return entry.text;
    if (entry.range && address && inRange(address, entry.range)) return entry.text;
  }
  return undefined;
}

export function parseNoProxy(list: string): Entry[] {
  const entries: Entry[] = [];
  for (const raw of list.split(/[\s,]+/)) {
    const text = raw.trim();
    if (text === '') continue;
    const entry = parseEntry(text);
    if (entry) entries.push(entry);
  }
  return entries;
}

function parseEntry(text: string): Entry | undefined {
  if (text === '*') return { text, all: true };
  let body = text.toLowerCase();
  let port: number | undefined;
  // [v6]:port, v4:port, name:port; a bare v6 address has more than one colon and no port.
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(body);
  if (bracketed) {
    body = bracketed[1]!;
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else {
    const withPort = /^([^:]+):(\d+)$/.exec(body);
    if (withPort) {
      body = withPort[1]!;
      port = Number(withPort[2]);
    }
  }
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(body);
  const address = cidr ? cidr[1]! : body;
  if (isIP(address)) {
    const bytes = addressBytes(address)!;
    const bits = cidr ? Number(cidr[2]) : bytes.length * 8;
    if (bits > bytes.length * 8) return undefined;
    return { text, range: { bytes, bits }, ...(port === undefined ? {} : { port }) };
  }
  if (cidr) return undefined;
  const domain = body.replace(/^\*?\.+/, '').replace(/\.+$/, '');
  if (domain === '') return undefined;
  return { text, domain, ...(port === undefined ? {} : { port }) };
}

function normaliseHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '');
}

/** 4 or 16 bytes; an IPv4-mapped IPv6 address (::ffff:10.0.0.1) counts as its IPv4 address. */
function addressBytes(address: string): Uint8Array | undefined {
  if (isIP(address) === 4) return Uint8Array.from(address.split('.').map(Number));
  if (isIP(address) !== 6) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return addressBytes(mapped[1]!);
  let text = address;
  // A trailing dotted quad (::1.2.3.4) as two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}

function inRange(address: Uint8Array, range: { bytes: Uint8Array; bits: number }): boolean {
  if (address.length !== range.bytes.length) return false;
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((address[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}
