/**
 * The rules by place a command checks adverts with (validate, publish, create, update, sync): today's
 * (the dates block's today: UTC, the sandbox's clock, JOBS_TODAY), the config's employer facts and
 * overrides. A rule the config lowers is said once per run on stderr, so it is never silently off.
 */
import type { Context } from './context.js';
import type { ResolvedConfig } from '../core/config/types.js';
import { todayFor } from '../core/sync/today.js';
import { loweredNote, ruleSettingsFor } from '../core/rules/settings.js';
import type { RuleSettings } from '../core/rules/types.js';
import { displayPath } from '../core/config/paths.js';

export async function advertRules(
  ctx: Context,
  config: Pick<ResolvedConfig, 'employer' | 'ruleLevels' | 'employerFile'>,
  today?: number,
): Promise<RuleSettings> {
  const show = (file: string) => displayPath(file, ctx.cwd, ctx.env);
  const settings = await ruleSettingsFor(config, today ?? (await todayFor({ sandbox: ctx.globals.sandbox, env: ctx.env })), ctx.env, show);
  const note = loweredNote(config, show, settings);
  if (note) ctx.io.stderr.write(`${ctx.name}: note: ${note}\n`);
  return settings;
}
