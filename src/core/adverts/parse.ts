/** Parses advert text that did not come from a file (tests, the programmatic API); a `file` ending in .md is read as Markdown. */
import { advertFieldTypes } from '../generated/validators.js';
import { decodeAdvertBytes } from './files.js';
import { readYamlAdverts, type ReadResult } from './yaml-reader.js';
import { readAdvertText } from './markdown.js';

export function parseAdverts(file: string, content: string | Uint8Array): ReadResult {
  const read = typeof content === 'string' ? { text: content } : decodeAdvertBytes(file, content);
  if ('problem' in read) return { adverts: [], problems: [read.problem] };
  return readAdvertText(file, read.text, (f, t) => readYamlAdverts(f, t, { fieldTypes: advertFieldTypes }));
}
