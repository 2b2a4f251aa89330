/**
 * The output formats, described once: `--output`'s choices (and so shell completion), which
 * commands give each one (the others refuse it with exit 2 before doing anything), how a report
 * writes it, and how a fatal error is given in it. The docs' list is held to this table by a test.
 * Nothing here loads a writer: the report formats' code is imported when a run writes one.
 *
 * A new format is one entry in BUILT_IN and its writer's module: the reports ask the entry and the
 * writer what to do (`document`, `everyCase`, `line`), never the format's name.
 */
import type { Finding } from '../../core/errors/findings.js';

/** One checked or sent unit (an advert, an event) and what went wrong with it: a JUnit testcase. */
export interface ReportCase {
  /** The file it came from ('' when none). */
  file: string;
  /** What a person calls it: the advert's reference, or `kind application_id` for an event. */
  name: string;
  line?: number;
  column?: number;
  findings: readonly Finding[];
  /** Not run (a dry run's event, an event the journal skips): a JUnit `<skipped/>`. */
  skipped?: string;
}

/** What a whole run reports in a document format. */
export interface RunReport {
  /** The command, for the document's name (`jobs validate`). */
  command: string;
  version: string;
  cases: readonly ReportCase[];
  /** Findings that belong to no case (a file that could not be read). */
  findings?: readonly Finding[];
}

/** A fatal error (usage, config, network, ...) as a report format gives it. */
export interface FatalError {
  command: string;
  version: string;
  exitCode: number;
  /** A short stable identifier: `usage`, `config`, `invalid_input`, `unauthorized`, ... */
  kind: string;
  message: string;
  details: readonly string[];
}

export interface ReportWriter {
  report(report: RunReport): string;
  fatal(error: FatalError): string;
  /**
   * A format written as the findings come, one line each (GitHub annotations), where the human
   * format would print its line for the advert; its `report` then writes what is left at the end.
   */
  line?(finding: Finding): string;
}

export interface FormatEntry {
  name: string;
  /** For `--help` and the docs. */
  summary: string;
  /** The top-level commands that give it; 'every' for all (but those in `except`). */
  commands: 'every' | readonly string[];
  except?: readonly string[];
  /** stdout holds one document written at the end: no line per advert, no status lines on stderr. */
  document: boolean;
  /** The report lists every advert checked, those that passed too (JUnit's testcases), not only findings. */
  everyCase?: boolean;
  /** The format has a place for warnings (findings that make nothing invalid); false: they are left out (a JUnit testcase passes or fails). */
  warnings: boolean;
  /** The writer of the formats built from findings (json and human are shaped by each command). */
  writer?: () => Promise<ReportWriter>;
}

/** The commands that check or send adverts and events: they give every report format. */
const CHECKS = ['validate', 'publish', 'create', 'update', 'sync', 'events'] as const;
const REPORTS = ['validate', 'publish', 'create', 'sync', 'events'] as const;

const BUILT_IN = [
  { name: 'human', summary: 'lines for people (the default)', commands: 'every', document: false, warnings: true },
  {
    name: 'json',
    summary: 'one JSON document (NDJSON for sync and events); see schemas/output/',
    commands: 'every',
    // They print a shell script: there is no JSON form of one.
    except: ['completion', 'shell-init'],
    document: true,
    warnings: true,
  },
  {
    name: 'github',
    summary: 'GitHub Actions annotations (::error file=...,line=...::)',
    commands: CHECKS,
    document: false,
    warnings: true,
    writer: () => import('./formats.js').then((m) => m.githubWriter),
  },
  {
    name: 'sarif',
    summary: 'SARIF 2.1.0 for code scanning',
    commands: REPORTS,
    document: true,
    warnings: true,
    writer: () => import('./formats.js').then((m) => m.sarifWriter),
  },
  {
    name: 'junit',
    summary: 'JUnit XML test report (GitLab, Jenkins, Azure Pipelines, CircleCI)',
    commands: REPORTS,
    document: true,
    everyCase: true,
    warnings: false,
    writer: () => import('./junit.js').then((m) => m.junitWriter),
  },
  {
    name: 'codequality',
    summary: 'GitLab Code Quality report (JSON)',
    commands: REPORTS,
    document: true,
    warnings: true,
    writer: () => import('./codequality.js').then((m) => m.codeQualityWriter),
  },
] as const satisfies readonly FormatEntry[];

/** A format's name, as `--output` takes it. */
export type OutputFormat = (typeof BUILT_IN)[number]['name'];

/** Every format, in the order `--output` lists them. */
export const FORMATS: readonly FormatEntry[] = [...BUILT_IN];

/** `--output`'s choices (read when the program is built). */
export function outputFormats(): OutputFormat[] {
  return FORMATS.map((f) => f.name as OutputFormat);
}

/** Adds a format to the registry (a test's throwaway one); returns the function that takes it out. */
export function registerFormat(entry: FormatEntry): () => void {
  const list = FORMATS as FormatEntry[];
  list.push(entry);
  return () => {
    list.splice(list.indexOf(entry), 1);
    loaded.delete(entry.name);
  };
}

export function formatEntry(name: string): FormatEntry {
  return FORMATS.find((f) => f.name === name) ?? FORMATS[0]!;
}

export function isOutputFormat(name: string): name is OutputFormat {
  return FORMATS.some((f) => f.name === name);
}

/** True when `command` (a top-level command's name) gives the format. */
export function gives(format: string, command: string): boolean {
  return entryGives(formatEntry(format), command);
}

function entryGives({ commands, except }: FormatEntry, command: string): boolean {
  return commands === 'every' ? !except?.includes(command) : commands.includes(command);
}

/** The formats a command gives, for its refusal message. */
export function formatsOf(command: string): string[] {
  return FORMATS.filter((f) => entryGives(f, command)).map((f) => f.name);
}

const loaded = new Map<string, ReportWriter>();

/** Loads the format's writer, once per process, so that the code that reports can write it at once. */
export async function prepareWriter(format: string): Promise<ReportWriter | undefined> {
  const entry = formatEntry(format);
  if (entry.writer && !loaded.has(format)) loaded.set(format, await entry.writer());
  return loaded.get(format);
}

/** The writer of a report format, once prepareWriter has run (every command's action does). */
export function writerFor(format: string): ReportWriter | undefined {
  return loaded.get(format);
}
