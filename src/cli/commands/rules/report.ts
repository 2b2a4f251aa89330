/** rules' human output: one block per rule, in data order (by place file, then as written). */
import type { ListedWordingCheck } from '../../../core/wording/list.js';
import type { Context } from '../../context.js';
import type { Requirement, Rule, RuleFile } from '../../../core/rules/types.js';
import { sanitize } from '../../../core/util/sanitize.js';
import { paint } from '../../output/summary.js';

export interface ListedRule {
  id: string;
  place: Pick<RuleFile['place'], 'id' | 'name' | 'kind'>;
  summary: string;
  from: string;
  to?: string;
  in_force: boolean;
  covers: Rule['covers'];
  requires: Requirement[];
  not_checked: string[];
  source: Rule['source'];
  checked: string;
  stale: boolean;
  level: 'error' | 'warning' | 'off';
  unsettled?: string;
  note?: string;
}

/** One requirement in words: `pay range (open-ended refused, link refused)`. */
export function requirementText(r: Requirement): string {
  const [kind, options] = Object.entries(r)[0]! as [string, Record<string, unknown>];
  if (kind === 'forbidden_text') return `none of ${(options.phrases as string[]).map((p) => `"${p}"`).join(', ')} (${String(options.why)})`;
  const parts = Object.entries(options).map(([k, v]) =>
    typeof v === 'object' && v !== null
      ? `${k.replace(/_/g, ' ')} ${String((v as { amount: number }).amount)} ${(v as { currency: string }).currency}`
      : `${k.replace(/_/g, ' ')} ${String(v)}`,
  );
  const names: Record<string, string> = {
    pay_range: 'pay range',
    benefits: 'benefits',
    deadline: 'application deadline',
    ai_screening: 'whether AI screens applicants',
    vacancy_status: 'whether the vacancy exists',
    overpayment: 'whether more than the minimum may be paid',
    neutral_title: 'a title that addresses every gender',
  };
  return `${names[kind] ?? kind}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

export function writeRules(ctx: Context, rules: readonly ListedRule[], how: { place: string | undefined; stale: boolean; total: number }): void {
  const out = ctx.io.stdout;
  const c = paint(ctx, out);
  if (rules.length === 0) {
    const why =
      how.total === 0
        ? 'this build has no rules by place'
        : how.stale
          ? 'no rule was last checked more than 12 months ago'
          : `no rule reaches ${how.place ?? 'any place'}`;
    ctx.io.stderr.write(`${why}\n`);
    return;
  }
  for (const r of rules) {
    const s = (text: string) => sanitize(text);
    const state = r.in_force ? 'in force today' : 'not in force today';
    const level = r.level === 'error' ? '' : c.yellow(`  (the config sets it to ${r.level})`);
    out.write(`${c.bold(r.id)}  ${s(r.place.name)} (${r.place.kind})${level}\n`);
    out.write(`  ${s(r.summary)}\n`);
    out.write(`  in force: from ${r.from}${r.to ? ` to ${r.to}` : ''} (${state})\n`);
    const remote = { covered: 'covered', not_covered: 'not covered', unsettled: 'unsettled' }[r.covers.remote];
    out.write(
      `  covers: employers with ${r.covers.employees_min} or more employees (counted ${r.covers.counted === 'anywhere' ? 'anywhere' : `in ${s(r.place.name)}`}); remote jobs: ${remote}${r.covers.remote_note ? ` (${s(r.covers.remote_note)})` : ''}\n`,
    );
    out.write(`  asks: ${r.requires.map(requirementText).map(s).join('; ')}\n`);
    if (r.not_checked.length > 0) out.write(`  not checked: ${r.not_checked.map(s).join('; ')}\n`);
    if (r.unsettled) out.write(`  unsettled: ${s(r.unsettled)}\n`);
    if (r.note) out.write(`  note: ${s(r.note)}\n`);
    out.write(`  source: ${s(r.source.title)}, ${s(r.source.url)}\n`);
    for (const also of r.source.also ?? []) out.write(`  also: ${s(also.title)}, ${s(also.url)}\n`);
    out.write(`  last checked: ${r.checked}${r.stale ? c.yellow(' (more than 12 months ago)') : ''}\n\n`);
  }
}

/** The wording checks (docs/wording.md): warnings that reach every place, each with its sources. */
export function writeWordingChecks(ctx: Context, checks: readonly (ListedWordingCheck & { level: string })[]): void {
  if (checks.length === 0) return;
  const out = ctx.io.stdout;
  const c = paint(ctx, out);
  out.write(`${c.bold('Wording checks')} (warnings, every place; validate --wording checks them; docs/wording.md)\n\n`);
  for (const w of checks) {
    out.write(`${c.bold(w.id)}${w.level === 'off' ? c.yellow('  (the config turns it off)') : ''}\n`);
    out.write(`  ${sanitize(w.summary)}\n`);
    if (w.languages.length > 0) out.write(`  languages: ${w.languages.join(', ')}\n`);
    for (const s of w.sources) out.write(`  source: ${sanitize(s.title)}, ${sanitize(s.url)}${s.licence ? ` (${sanitize(s.licence)})` : ''}\n`);
    out.write('\n');
  }
}
