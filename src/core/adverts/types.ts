/** A 1-based line and column in a source file. */
export interface Position {
  line: number;
  column: number;
}

export type PathSegment = string | number;

/** One advert read from a file, with a way back from any path in it to its place in the YAML. */
export interface AdvertSource {
  /** The file as the user named it (`<stdin>` for -). */
  file: string;
  /** 0-based index of the YAML document within the file. */
  index: number;
  /** The advert's fields, scalars typed by the schema. */
  value: Record<string, unknown>;
  /**
   * Where the value at `path` is written; for a path that is absent, where its nearest present
   * parent is (a missing field points at the mapping that should hold it).
   */
  locate(path: readonly PathSegment[]): Position;
  /**
   * Where the character at `offset` of the string at `path` is written (a word inside a long
   * text); given where the file's text is at hand (bulk/check-file.ts), else locate() answers.
   */
  locateIn?(path: readonly PathSegment[], offset: number): Position;
}

/** A file or document that could not be read as an advert at all. */
export interface LoadProblem {
  file: string;
  position?: Position;
  message: string;
  /** The source lines at the mistake, with a caret under it (YAML syntax errors). */
  context?: string[];
  /** Short machine-readable kind: yaml_syntax, empty, binary, encoding, too_large, not_a_mapping, unreadable, unreadable_folder, not_a_file, ... */
  code: string;
}

export interface ReadOptions {
  /** Dotted path -> JSON type(s), from the schema; see advertFieldTypes. */
  fieldTypes: Record<string, string>;
  /** Bound on nodes visited per document, aliases expanded (defends against alias bombs). */
  maxNodes?: number;
}

/** One advert text read: its documents as adverts with positions, or its problems. */
export interface ReadResult {
  adverts: AdvertSource[];
  problems: LoadProblem[];
  /** The text the adverts were read from and the file's line it starts on, where a reader of files gives it (load.ts): the wording checks read comments and words' places in it. */
  text?: string;
  firstLine?: number;
}
