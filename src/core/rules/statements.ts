/**
 * What the text that is sent says: the statements a rule asks an advert to make (benefits, the
 * application deadline, whether AI screens applicants, whether the vacancy exists, whether pay above
 * the minimum is possible) found by the words that make them, in English, German and French. An
 * advert that says it in other words states it in `jobs.disclosures` (disclosures.ts): the tool
 * adds that to the job description, where the candidate reads it.
 */
import type { CheckKind } from './types.js';

export type StatementKind = Exclude<CheckKind, 'pay_range' | 'forbidden_text' | 'neutral_title'>;

export const STATEMENT_WORDS: Record<StatementKind, RegExp> = {
  benefits:
    /\bbenefits?\b|\bhealth (?:insurance|care|plan)|\bdental\b|\b401\(k\)|\bpaid time off\b|\bPTO\b|\bpension\b|\bretirement plan|\bSozialleistungen|\bZusatzleistungen|\bavantages sociaux|\bmutuelle\b/i,
  deadline:
    /\bapply by\b|\bapplication deadline|\bapplications? (?:close|closes|are accepted until|will be accepted|accepted until)|\bdeadline to apply|\baccepting applications (?:until|through)|\bon an ongoing basis|\bon a rolling basis|\bapplications are ongoing|\bBewerbungsfrist|\bbewerben bis|\bBewerbungen bis|\bdate limite|\bcandidatures jusqu/i,
  ai_screening:
    /(?:artificial intelligence|\bAI\b|künstliche[rn]? Intelligenz|\bKI\b|intelligence artificielle|\bIA\b)[^.\n]{0,80}\b(?:screen|assess|select|evaluat|shortlist|bewert|auswahl|auswähl|sélection|évalu)|\b(?:screen|assess|select|evaluat)[^.\n]{0,80}(?:artificial intelligence|\bAI\b)/i,
  vacancy_status:
    /\bexisting (?:vacancy|position|role|job)\b|\b(?:vacancy|position|role) (?:is (?:currently )?(?:open|vacant)|exists|currently exists)\b|\bnot (?:for )?an existing vacancy|\bfuture (?:vacanc|opening|position)|\btalent pool\b|\bis (?:currently )?vacant\b/i,
  overpayment:
    /Überzahlung|\bover-?payment\b|\babove the (?:minimum|collective)|\büber dem (?:Kollektivvertrag|KV|Mindestgehalt)|\bhigher (?:pay|salary) (?:is )?possible/i,
};

/** Whether the sent text makes the statement. */
export function states(kind: StatementKind, text: string): boolean {
  return STATEMENT_WORDS[kind].test(text);
}

/** The first of the phrases the text holds (ignoring case), or undefined. */
export function forbiddenPhrase(phrases: readonly string[], text: string): string | undefined {
  const lower = text.toLowerCase();
  return phrases.find((p) => lower.includes(p.toLowerCase()));
}
