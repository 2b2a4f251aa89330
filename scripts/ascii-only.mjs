/**
 * The built CLI as ASCII. esbuild writes non-ASCII characters as escapes, except inside regular
 * expression literals (`/[ßæø]/` in src/core/adverts/locations.ts). One such character makes the
 * whole bundle a two-byte string in V8, after a slower UTF-8 decoding: some 5 ms and 470 page faults
 * at every start for dist/cli.cjs (1 MB). Escape them too (`\uXXXX` matches the same code unit in a
 * regular expression, with or without the u flag: a character beyond U+FFFF becomes its escaped
 * surrogate pair, which the u flag reads as the one character), so bin/jobs.js reads the bundle as
 * latin1: a plain copy into a one-byte string.
 */
export function asciiOnly(code, name) {
  const escaped = code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (/[^\x00-\x7f]/.test(escaped)) throw new Error(`${name}: not ASCII after escaping`);
  return escaped;
}
