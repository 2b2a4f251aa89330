/**
 * `jobs help <topic>`: exit codes, environment, formats, config, so the terminal is enough. Loaded
 * only when a topic is asked for; the texts come from the code's own definitions (exit codes, the
 * environment list, the output formats, the config schema) wherever there is one.
 */
import { configSchema } from '../../core/generated/config-schema.js';
import { ExitCode } from '../../core/errors/failures.js';
import { exitCodeTable, MIXED_FAILURES_NOTE } from '../../core/errors/exit-codes.js';
import { didYouMean } from '../../core/util/did-you-mean.js';
import { sanitize } from '../../core/util/sanitize.js';
import { COMMANDS } from '../commands/index.js';
import type { Io } from '../context.js';
import { FORMATS } from '../output/format-registry.js';
import { jsonText } from '../output/json-output.js';
import { ENVIRONMENT } from './environment.js';
import { HELP_TOPICS } from './groups.js';
import { reflow } from './configure.js';

interface TopicRun {
  io: Io;
  name: string;
  json: boolean;
  /** Prints the help of the command of the same name first (`config`). */
  commandHelp?: () => void;
}

/** Prints a topic (exit 0), or says the word is neither a command nor a topic (exit 2). */
export function showHelpTopic(topic: string, run: TopicRun): number {
  const width = Math.min(run.io.stdout.columns ?? 100, 100);
  const text = topicText(topic, run.name, width);
  if (text !== undefined) {
    if (run.commandHelp) {
      run.commandHelp();
      run.io.stdout.write('\n');
    }
    run.io.stdout.write(`${reflow(text, width).trimEnd()}\n`);
    return ExitCode.ok;
  }
  const candidates = [...COMMANDS.map(([command]) => command), ...HELP_TOPICS.map(([t]) => t)];
  const meant = didYouMean(topic, candidates);
  const message = `unknown command or topic '${sanitize(topic)}'`;
  const details = [
    ...(meant ? [`(Did you mean ${meant}?)`] : []),
    `Run '${run.name} help' for the commands, and '${run.name} help <topic>' for ${HELP_TOPICS.map(([t]) => t).join(', ')}.`,
  ];
  run.io.stderr.write(`${run.name}: ${message}\n${details.join('\n')}\n`);
  if (run.json) run.io.stdout.write(jsonText({ error: { exit_code: ExitCode.usage, message, details } }));
  return ExitCode.usage;
}

/** A topic's text (paragraphs are reflowed when shown), or undefined for an unknown topic. */
export function topicText(topic: string, name: string, width = 100): string | undefined {
  switch (topic) {
    case 'exit-codes':
      return exitCodesTopic(name, width);
    case 'environment':
      return environmentTopic(name, width);
    case 'formats':
      return formatsTopic(name, width);
    case 'config':
      return configTopic(name, width);
    default:
      return undefined;
  }
}

const plain = (text: string) => text.replace(/`/g, '');

/** Two columns, the second wrapped to `width` under itself. */
export function table(rows: ReadonlyArray<readonly [string, string]>, width: number): string {
  const termWidth = Math.max(...rows.map(([term]) => term.length));
  const indent = ' '.repeat(termWidth + 4);
  return rows
    .map(([term, text]) => {
      const lines = wrapWords(plain(text), Math.max(20, width - indent.length));
      return [`  ${term.padEnd(termWidth)}  ${lines[0] ?? ''}`, ...lines.slice(1).map((l) => indent + l)].join('\n');
    })
    .join('\n');
}

function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

function exitCodesTopic(name: string, width: number): string {
  return `Exit codes of ${name} (the same for every command; stable across releases):

${table(
  exitCodeTable().map((c) => [String(c.code), c.long]),
  width,
)}

${plain(MIXED_FAILURES_NOTE)} A run stopped by a signal exits 128 + the signal's number, as shells
report it, after recording what it sent (sync state, events journal). With --output json, the
error document's exit_code is the same number.`;
}

function environmentTopic(name: string, width: number): string {
  return `Environment variables ${name} reads:

${table(ENVIRONMENT, width)}

Precedence of settings: flags, then the environment, then the project config, then the user
config, then defaults (see '${name} help config'). The token is never a flag: it would show in ps
and in shell history.`;
}

const JSON_DOCUMENTS: [string, string][] = [
  ['validate', '{"valid", "summary", "adverts": [{"file", "document", "reference", "valid", "errors"}], "findings": [...]}'],
  ['publish, create', '{"results": [{"file", "document", "reference", "status", "error"?}], "summary"}'],
  ['delete', '{"results": [{"reference", "status"}]}'],
  [
    'stats',
    '{"stats": [{"reference", "views", "likes", "applications", "applications_unviewed", "like_rate", "application_rate", "change", "needs_attention"}], "groups"?: [{"reference", "places", ...sums}], "history"?: [{"reference", "snapshots"}]}',
  ],
  ['report', '{"file", "service", "generated_at", "from", "to", "funnel", "needs_attention", "totals", "adverts", "groups"?}'],
  ['sync', '{"type": "result", "reference", "file", "action", "status", "error"?} per advert, then {"type": "summary", ...counts}'],
  ['sync --dry-run', '{"type": "plan", "action", "reference", "file", "group"?, "changed"?, "removed"?} per change, then {"type": "plan_summary", ...counts}'],
  ['events', '{"file", "line", "application_id", "kind", "key", "status", "error"?} per event, then {"summary": {...counts}}'],
  ['a fatal error', '{"error": {"exit_code", "message", "details"}}'],
];

function formatsTopic(name: string, width: number): string {
  const files: [string, string][] = [
    [
      'adverts',
      `YAML (.yaml, .yml) or JSON (.json): one advert per document, --- between documents; Markdown (.md): front matter holds the fields, the body is the job_description; folders are searched recursively; - reads stdin. '${name} schema' prints the schema.`,
    ],
    [
      'events',
      'NDJSON ({"application_id", "kind", "data"?} a line), CSV (header application_id,kind,data) or YAML (a list of mappings); --format when the file name does not say.',
    ],
    ['config', `.jobsrc.yaml and friends, and the user config (see '${name} help config').`],
  ];
  return `Output formats (-o, --output <format>):

${table(
  FORMATS.map((f) => [
    f.name,
    `${f.summary}; ${f.commands === 'every' ? 'every command' : f.commands.join(', ')}${f.except ? ` but ${f.except.join(', ')}` : ''}`,
  ]),
  width,
)}

JSON documents (--json):

${table(JSON_DOCUMENTS, width)}

A finding is {"kind", "file", "line", "column", "path", "message", "text", "rule"}; "errors" is the
service's error object.

Files ${name} reads:

${table(files, width)}`;
}

interface SchemaNode {
  description?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
}

/** Every key of the config schema with its description, dotted as `config set` takes it. */
export function configKeys(): [string, string][] {
  const out: [string, string][] = [];
  const walk = (node: SchemaNode, path: string[]) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      if (key === '$schema') continue;
      out.push([[...path, key].join('.'), child.description ?? '']);
      walk(child, [...path, key]);
    }
    if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, [...path, '<name>']);
  };
  walk(configSchema() as SchemaNode, []);
  return out;
}

function configTopic(name: string, width: number): string {
  const keys = configKeys()
    .map(
      ([key, text]) =>
        `  ${key}\n${wrapWords(text, width - 6)
          .map((l) => `      ${l}`)
          .join('\n')}`,
    )
    .join('\n');
  return `Configuration

Settings come from, in order of precedence: flags, the environment (JOBS_BASE_URL, JOBS_TOKEN,
JOBS_PROFILE, JOBS_CONFIG), the project config (the nearest .jobsrc, .jobsrc.{json,yaml,yml},
jobs.config.* or package.json key "jobs", from the working folder upwards; JavaScript ones are not
run unless named with --config), the user config ($XDG_CONFIG_HOME/jobs/config.yaml, default
~/.config/jobs/), then defaults. --config <file> or JOBS_CONFIG names one file instead of searching.
'${name} config list' shows every setting in effect and where it comes from; '${name} config path'
the files in use. \${VAR} in any value reads the environment variable VAR ($\${VAR} is the text
\${VAR}; an unset one is an error): in the user config and a file named with --config, any
variable; in a project config, only those allowed by name (allow_env below, or --allow-env VAR).
The token's variables (JOBS_TOKEN, and those a profiles.<name>.token reads) are read only in
profiles.<name>.token, so the token never reaches an advert, a URL or output.

Keys (for the config files and '${name} config get|set|unset <key>'):

${keys}`;
}
