/**
 * The rules a run checks with (RuleSettings): the data built into the tool, the employer's facts and
 * the severity overrides of the config (an unknown rule id is a config error), and today.
 *
 * The data is src/core/rules/data/, compiled into the build (scripts/generate-validators.mjs). Tests
 * may check with a data set of their own: JOBS_TEST_RULES=<name> reads test/fixtures/rules/<name>/
 * of the tool's own source tree. An installed package has no test/ folder, so there it reads
 * nothing; a config file cannot set it, and it cannot name a folder outside the fixtures.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateRules } from '../generated/validators.js';
import { ConfigError } from '../errors/failures.js';
import type { ResolvedConfig } from '../config/types.js';
import { didYouMean } from '../util/did-you-mean.js';
import { compiledRules, RulesDataError } from './compile.js';
import { builtInRules, rulesOf } from './data.js';
import { headcount } from './check-rules.js';
import type { RuleFile, RuleLevel, RuleSettings } from './types.js';

export const TEST_RULES_VARIABLE = 'JOBS_TEST_RULES';

type Env = Record<string, string | undefined>;

/** The tool's source tree (the folder of its package.json), when it runs from one. */
function sourceRoot(): string | undefined {
  let dir: string;
  try {
    dir = dirname(fileURLToPath(import.meta.url));
  } catch {
    return undefined;
  }
  for (let i = 0; i < 5; i++, dir = dirname(dir)) if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'src', 'core', 'rules'))) return dir;
  return undefined;
}

let fixtures: { name: string; files: { file: string; data: RuleFile }[] } | undefined;

/** A test's data set (see above); the yaml package is loaded only then. */
async function testFiles(name: string): Promise<{ file: string; data: RuleFile }[]> {
  if (fixtures?.name === name) return fixtures.files;
  const root = sourceRoot();
  const dir = root && /^[a-z0-9-]+$/.test(name) ? join(root, 'test', 'fixtures', 'rules', name) : undefined;
  if (!dir || !existsSync(dir)) throw new RulesDataError(`${TEST_RULES_VARIABLE}=${name}: no such test data set (it is for the tool's own tests)`);
  const { parse } = await import('yaml');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const data = parse(readFileSync(join(dir, file), 'utf8')) as unknown;
      if (!validateRules(data)) throw new RulesDataError(`${file}: ${validateRules.errors?.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
      return { file, data: data as RuleFile };
    });
  fixtures = { name, files };
  return files;
}

/** The data a run checks with: the built-in rules, or a test's. */
export async function ruleData(env: Env): Promise<{ file: string; data: RuleFile }[]> {
  const name = env[TEST_RULES_VARIABLE];
  // Checked against the schema when it was built (scripts/generate-validators.mjs).
  return name ? testFiles(name) : builtInRules();
}

/** `:line:column` of a key in a config file's text (YAML or JSON), or '' when it cannot be found. */
function lineOf(file: string, key: string): string {
  try {
    const lines = readFileSync(file, 'utf8').split('\n');
    const escaped = key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const at = new RegExp(`^(\\s*)["']?${escaped}["']?\\s*:`);
    for (let i = 0; i < lines.length; i++) {
      const m = at.exec(lines[i]!);
      if (m) return `:${i + 1}:${m[1]!.length + 1}`;
    }
  } catch {
    // The file was read a moment ago; without it the message still names the key.
  }
  return '';
}

/** The settings of a run; throws a ConfigError for a `rules:` key that names no rule. */
export async function ruleSettingsFor(
  config: Pick<ResolvedConfig, 'employer' | 'ruleLevels'>,
  today: number,
  env: Record<string, string | undefined>,
  show: (file: string) => string = (file) => file,
): Promise<RuleSettings> {
  // The tool's own data stays out of the settings (each thread parses it at its first use: data.ts).
  const name = env[TEST_RULES_VARIABLE];
  const files = name ? await testFiles(name) : undefined;
  const levels: Record<string, RuleLevel> = {};
  const keys = Object.entries(config.ruleLevels ?? {});
  // The tool's own data was checked when it was built: compiled here only for a `rules:` key to look
  // up (or a test data set to check), else when an advert needs it (check-rules.ts).
  const compiled = keys.length > 0 || files ? compiledRules(files ?? builtInRules()) : undefined;
  for (const [id, { level, file }] of keys) {
    if (!compiled!.byId.has(id)) {
      const near = didYouMean(id, compiled!.byId.keys());
      throw new ConfigError(`${show(file)}${lineOf(file, id)}: rules.${id}: no rule has this id${near ? `; did you mean ${near}?` : ''}`, {
        details: [`'jobs rules' lists the rules and their ids; remove the line or correct the id.`],
      });
    }
    levels[id] = level;
  }
  const employer = config.employer ?? {};
  return { today, employer: { ...employer }, levels, ...(files ? { files } : {}) };
}

/**
 * The rules a config lowers (warning or off), and those a project config's employer size exempts the
 * employer from, in sentences a run says once, so a silenced rule is never invisible; undefined when none.
 * (`settings`: the run's rules, for the exemptions; the same settings the check uses.)
 */
export function loweredNote(
  config: Pick<ResolvedConfig, 'ruleLevels' | 'employerFile'>,
  show: (file: string) => string,
  settings?: Pick<RuleSettings, 'employer' | 'files'>,
): string | undefined {
  const notes: string[] = [];
  const lowered = Object.entries(config.ruleLevels ?? {}).filter(([, v]) => v.level !== 'error');
  if (lowered.length > 0) {
    const list = lowered.map(([id, v]) => `${id}: ${v.level} (${show(v.file)})`).join(', ');
    notes.push(`the config lowers ${lowered.length === 1 ? 'a rule' : `${lowered.length} rules`} by place: ${list}`);
  }
  if (config.employerFile !== undefined && settings) {
    const exempt = compiledRules(rulesOf(settings)).rules.filter((rule) => {
      const size = headcount(rule, settings);
      return size !== undefined && size < rule.covers.employees_min;
    });
    if (exempt.length > 0)
      notes.push(
        `the project config's employer size (${show(config.employerFile)}) exempts the employer from ${exempt.length === 1 ? 'a rule' : `${exempt.length} rules`} by place: ${exempt.map((r) => r.id).join(', ')}`,
      );
  }
  return notes.length === 0 ? undefined : `${notes.join('; ')}; see docs/rules.md`;
}
