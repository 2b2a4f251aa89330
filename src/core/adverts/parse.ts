/** Parses advert text that did not come from a file (tests, the programmatic API). */
import { advertFieldTypes } from '../generated/validators.js';
import { decodeAdvertBytes } from './files.js';
import { readYamlAdverts, type ReadResult } from './yaml-reader.js';
import { expandLocations } from './locations.js';

export function parseAdverts(file: string, content: string | Uint8Array): ReadResult {
  const read = typeof content === 'string' ? { text: content } : decodeAdvertBytes(file, content);
  if ('problem' in read) return { adverts: [], problems: [read.problem] };
  // An advert for several places is one advert per place, as the CLI reads it.
  return expandLocations(readYamlAdverts(file, read.text, { fieldTypes: advertFieldTypes }));
}
