/** Parses advert text that did not come from a file (tests, the programmatic API). */
import { decodeAdvertBytes } from './files.js';
import { readAdvertYaml } from './read-yaml.js';
import type { ReadResult } from './types.js';
import { readAdvertText } from './markdown.js';
// Synchronous: the `yaml` package is loaded with this module, for the texts the fast reader leaves.
import { readWithYamlPackage } from './yaml-package-reader.js';

// A `file` ending in .md is read as a Markdown advert (markdown.ts).
export function parseAdverts(file: string, content: string | Uint8Array): ReadResult {
  const read = typeof content === 'string' ? { text: content } : decodeAdvertBytes(file, content);
  if ('problem' in read) return { adverts: [], problems: [read.problem] };
  return readAdvertText(file, read.text, (f, t) => readAdvertYaml(f, t, { yamlPackage: readWithYamlPackage }));
}
