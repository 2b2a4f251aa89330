/**
 * The one entry point from an advert file's text to its documents: the hand-written fast reader
 * (fast-yaml.ts) takes the simple YAML adverts almost always are; anything else, and every error,
 * goes to the `yaml` package (yaml-package-reader.ts), the authority, which is loaded only when a
 * text needs it (it costs start-up time). This is the only place that decides between the two.
 */
import { advertFieldTypes } from '../generated/validators.js';
import { readYamlFast } from './fast-yaml.js';
import type { ReadOptions, ReadResult } from './types.js';

export type YamlPackageReader = typeof import('./yaml-package-reader.js').readWithYamlPackage;

export interface AdvertYamlOptions extends Partial<ReadOptions> {
  /** The `yaml` package's reader, already loaded: the answer is then never a promise (see parseAdverts). */
  yamlPackage?: YamlPackageReader;
}

let loaded: YamlPackageReader | undefined;

/**
 * One advert file's text (or a part of it: a Markdown advert's front matter) -> its YAML documents
 * as adverts with positions (line 1 is the text's first line), or its problems. The answer comes at
 * once, without a promise, when the fast reader takes the text or the `yaml` package is loaded;
 * otherwise a promise (await it either way). `file` is the name problems and adverts carry.
 */
export function readAdvertYaml(file: string, text: string, options: AdvertYamlOptions & { yamlPackage: YamlPackageReader }): ReadResult;
export function readAdvertYaml(file: string, text: string, options?: AdvertYamlOptions): ReadResult | Promise<ReadResult>;
export function readAdvertYaml(file: string, text: string, options: AdvertYamlOptions = {}): ReadResult | Promise<ReadResult> {
  const read: ReadOptions = { fieldTypes: options.fieldTypes ?? advertFieldTypes, ...(options.maxNodes === undefined ? {} : { maxNodes: options.maxNodes }) };
  const fast = readYamlFast(file, text, read);
  if (fast) return fast;
  const slow = options.yamlPackage ?? loaded;
  if (slow) return slow(file, text, read);
  return import('./yaml-package-reader.js').then(({ readWithYamlPackage }) => (loaded = readWithYamlPackage)(file, text, read));
}
