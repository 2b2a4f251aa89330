/**
 * The words of a rule-by-place finding, from its message's data (check-rules.ts): the place, the
 * rule, what to add, whether an open-ended range or a link is why, and where the rule comes from.
 */
import { lastCompiledRules, type CompiledRule } from './compile.js';

const money = (m: { amount: number; currency: string }) => `${m.amount.toLocaleString('en-US')} ${m.currency}`;

function whatToAdd(rule: CompiledRule, reason: string, why: string | undefined): string {
  const pay = rule.requires.find((r) => 'pay_range' in r) as { pay_range: { max_spread?: { amount: number; currency: string } } } | undefined;
  switch (reason) {
    case 'pay_missing':
      return 'the advert shows no pay: write the range in salary_text (or give jobs.pay and leave salary_text out)';
    case 'pay_open_ended':
      return 'the pay is open-ended (one end alone, as in "from $90,000"), which this rule refuses: show the lowest and the highest pay';
    case 'pay_link':
      return 'a link stands in for the pay range, which this rule refuses: show the range itself in salary_text';
    case 'pay_unread':
      return `salary_text cannot be read as a pay${why ? ` (${why})` : ''}: write it as "120,000 - 150,000 USD a year", or give jobs.pay`;
    case 'pay_spread':
      return `the range is wider than the rule allows (the highest pay at most ${pay?.pay_range.max_spread ? money(pay.pay_range.max_spread) : 'the limit'} above the lowest)`;
    case 'pay_per':
      return 'the pay names no time unit: say per hour, month or year (jobs.pay.per)';
    case 'benefits':
      return 'add a general description of benefits (jobs.disclosures.benefits adds it to the job description)';
    case 'deadline':
      return 'add the application deadline, or that applications are ongoing (jobs.disclosures.deadline: true adds jobs.closes to the job description)';
    case 'ai_screening':
      return 'say whether AI is used to screen, assess or select applicants (jobs.disclosures.ai_screening)';
    case 'vacancy_status':
      return 'say whether the posting is for an existing vacancy (jobs.disclosures.vacancy)';
    case 'neutral_title':
      return 'the title names one gender: add (m/w/d), write a gender-inclusive form (Softwareentwickler:in), both forms, or a neutral word (Fachkraft, Leitung)';
    case 'overpayment':
      return 'say whether pay above the stated minimum is possible (jobs.disclosures.overpayment)';
  }
  const forbidden = /^forbidden_(\d+)$/.exec(reason);
  if (forbidden) {
    const r = rule.requires.find((q) => 'forbidden_text' in q) as { forbidden_text: { phrases: string[]; why: string } } | undefined;
    return `remove "${r?.forbidden_text.phrases[Number(forbidden[1])] ?? '?'}": ${r?.forbidden_text.why ?? ''}`;
  }
  return reason;
}

/** The rule a message's slug names, in the rules this thread checked with. */
export function ruleOfSlug(slug: string | undefined): CompiledRule | undefined {
  return slug === undefined ? undefined : lastCompiledRules()?.bySlug.get(slug);
}

/** The sentence of a finding (the end of one about the location or remote place); `why` says why a salary_text cannot be read. */
export function describePlaceRule(data: string[], why?: string): string | undefined {
  const [slug, reason, ...flags] = data;
  const rule = ruleOfSlug(slug);
  if (!rule || reason === undefined) return undefined;
  const where = flags.includes('remote') ? `may be done remotely from ${rule.place.name}` : `is in ${rule.place.name}`;
  const asks = rule.summary.charAt(0).toLowerCase() + rule.summary.slice(1).replace(/\.$/, '');
  const parts = [`${where}, where ${rule.id} asks for: ${asks}; ${whatToAdd(rule, reason, why)}`];
  // The sentences are joined with '. ': a data text's own full stop would make it '..'.
  const sentence = (text: string) => text.replace(/\.\s*$/, '');
  if (flags.includes('remote') && rule.covers.remote === 'unsettled')
    parts.push(`whether it reaches remote jobs is unsettled: ${sentence(rule.covers.remote_note ?? '')}`);
  if (rule.unsettled) parts.push(`unsettled: ${sentence(rule.unsettled)}`);
  if (flags.includes('size_unknown')) {
    const key = rule.covers.counted === 'in_place' ? `employer.employees_in.${rule.place.id}` : 'employer.employees';
    parts.push(
      `it covers employers with ${rule.covers.employees_min} or more employees${rule.covers.counted === 'in_place' ? ` in ${rule.place.name}` : ''}; declare yours with ${key} in the config`,
    );
  }
  parts.push(`source: ${rule.source.title}, ${rule.source.url}`);
  return parts.join('. ');
}
