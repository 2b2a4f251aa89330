/**
 * The one bound on YAML alias expansion, for every YAML the tool reads: adverts (read in
 * adverts/yaml-package-reader.ts, which spends the same budget as it converts), events files,
 * configs (project and user, and `jobs config set` reading one), and `--data-file`. Nodes alone are
 * not a bound: 1,000 aliases of a 1,000,000-character text are 1,000 nodes, and a 1 GB value once
 * expanded (sending it ran out of memory). No input needs more: an alias repeats a text or two.
 */
import { isAlias, isCollection, isPair, isScalar, type Document } from 'yaml';
import { sanitize } from './sanitize.js';

/** Characters aliases may repeat in one document. */
export const MAX_ALIASED_CHARACTERS = 1_000_000;

/** What is said at the alias that passes the bound. */
export function aliasBombMessage(alias: string): string {
  return `the alias *${sanitize(alias)} makes aliases repeat over ${MAX_ALIASED_CHARACTERS} characters in the document (an alias bomb?); write the value out once, or use fewer aliases`;
}

/**
 * The first alias of `doc` (in document order) at which the characters that aliases repeat, keys
 * and values, pass MAX_ALIASED_CHARACTERS; undefined when within. Each anchored node's expanded
 * size is computed once, so a billion-laughs file costs its own size to check, not its expansion.
 */
export function aliasExcess(doc: Document): { offset: number; message: string } | undefined {
  const sizes = new Map<unknown, number>();
  const expandedSize = (root: unknown): number => {
    // A stack, not recursion: nesting is as deep as the text makes it. Anchors come before their
    // aliases, so a target is sized before an alias of it inside a later anchor needs it.
    let total = 0;
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const n = stack.pop();
      if (isAlias(n)) {
        const target = n.resolve(doc);
        if (target === undefined) continue;
        let size = sizes.get(target);
        if (size === undefined) {
          // An alias inside its own anchor counts nothing (the package refuses it when converting).
          sizes.set(target, 0);
          size = expandedSize(target);
          sizes.set(target, size);
        }
        total += size;
      } else if (isScalar(n)) total += String(n.value ?? '').length;
      else if (isPair(n)) stack.push(n.key, n.value);
      else if (isCollection(n)) for (const item of n.items) stack.push(item);
    }
    return total;
  };
  let spent = 0;
  const stack: unknown[] = [doc.contents];
  const aliases: { source: string; offset: number; target: unknown }[] = [];
  while (stack.length > 0) {
    const n = stack.pop();
    if (isAlias(n)) aliases.push({ source: n.source, offset: n.range?.[0] ?? 0, target: n });
    else if (isPair(n)) stack.push(n.value, n.key);
    else if (isCollection(n)) for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]);
  }
  for (const a of aliases) {
    spent += expandedSize(a.target);
    if (spent > MAX_ALIASED_CHARACTERS) return { offset: a.offset, message: aliasBombMessage(a.source) };
  }
  return undefined;
}

/** `line:column` (1-based) of an offset in `text`, for a reader that keeps no LineCounter. */
export function lineColumn(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `${line}:${offset - start + 1}`;
}
