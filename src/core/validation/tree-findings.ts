/**
 * Findings for an error tree (local or the service's): each message located in its YAML file,
 * described and, where a local rule knows better, advised (local-rules.ts).
 */
import type { AdvertSource, PathSegment } from '../adverts/types.js';
import type { Finding } from '../errors/findings.js';
import { parseMessage } from '../errors/messages.js';
import { describeEntry } from '../errors/render.js';
import { flattenTree, type ErrorTree } from '../errors/tree.js';
import type { AdviceContext } from './advice.js';
import { adviseLocal, describeLocal, ruleFor } from './local-rules.js';

/**
 * Findings for an error tree. `advice` (by default the source's own value) lets a message say what
 * to write instead: give the advert as checked or sent, and the config's constants.
 */
export function findingsFromTree(
  tree: ErrorTree,
  source?: Pick<AdvertSource, 'file' | 'locate'> & Partial<Pick<AdvertSource, 'value' | 'locateIn'>>,
  reference?: string,
  advice: AdviceContext = {},
): Finding[] {
  const context: AdviceContext = { value: source?.value, ...(source ? { locate: source.locate } : {}), ...advice };
  return flattenTree(tree).map((entry) => {
    const d = describeEntry(entry, describeLocal);
    const better = adviceFor(entry.path, entry.message, context);
    const parsed = parseMessage(entry.message);
    const table = parsed && ruleFor(parsed.id);
    // A word inside a string (a wording finding) is at its own line and column where the text is at hand.
    const offset = parsed && table?.offset?.(parsed.data);
    const pos = offset !== undefined && source?.locateIn ? source.locateIn(entry.path as PathSegment[], offset) : source?.locate(entry.path as PathSegment[]);
    // A rule whose findings carry their own id (a rule by place: US-CO/pay-range) and help address.
    const own = parsed && table?.finding?.(parsed.data);
    const help = own?.help ?? table?.help;
    return {
      kind: 'field' as const,
      file: source?.file ?? '',
      ...(pos ? { line: pos.line, column: pos.column } : {}),
      path: d.path,
      message: own?.shown ?? d.raw,
      text: better ?? d.text,
      rule: own?.rule ?? parsed?.id ?? 'other',
      ...(reference === undefined ? {} : { reference }),
      ...(help === undefined ? {} : { help }),
    };
  });
}

function adviceFor(path: readonly string[], message: string, context: AdviceContext): string | undefined {
  try {
    return adviseLocal(path, message, context);
  } catch {
    // Advice is a nicety: the catalogue's sentence is still true.
    return undefined;
  }
}
