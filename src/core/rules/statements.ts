/**
 * What the text that is sent says: the statements a rule asks an advert to make (benefits, the
 * application deadline, whether AI screens applicants, whether the vacancy exists, whether pay above
 * the minimum is possible) found by the words that make them, in English, German and French. An
 * advert that says it in other words states it in `jobs.disclosures` (disclosures.ts): the tool
 * adds that to the job description, where the candidate reads it.
 */
import type { CheckKind } from './types.js';

export type StatementKind = Exclude<CheckKind, 'pay_range' | 'forbidden_text'>;

// `\b` knows only ASCII letters: a word that starts with one of äöüéÜ is matched without it.
export const STATEMENT_WORDS: Record<StatementKind, RegExp> = {
  benefits:
    /\bbenefits?\b|\bperks\b|\bhealth (?:insurance|care|plan)|\bmedical(?:,| and| insurance| coverage| plan)|\bdental\b|\b401\(?k\)?|\bpaid time off\b|\bPTO\b|\bpension\b|\bretirement plan|\bSozialleistungen|\bZusatzleistungen|\bKrankenversicherung|\bAltersvorsorge|\bavantages\b|\bmutuelle\b/i,
  deadline:
    /\bapply (?:by|before)\b|\b(?:application |closing )?deadline\s*:|\bapplication deadline|\bclosing date\b|\bapplications? (?:close|closes|are accepted until|will be accepted|(?:are )?accepted (?:until|through))|\b(?:posting|position|vacancy|job|advert) closes\b|\bdeadline to apply|\baccepting applications (?:until|through)|\bon an ongoing basis|\bon a rolling basis|\bapplications are ongoing|\bBewerbungsfrist|\bBewerbungsschluss|\bbewerben bis|\bBewerbungen bis|\bdate limite|\bcandidatures jusqu|\b(?:postulez|candidatez) avant\b/i,
  ai_screening:
    /(?:artificial intelligence|\bAI\b|künstliche[rn]? Intelligenz|\bKI\b|intelligence artificielle|\bIA\b)[^.\n]{0,80}(?:\b(?:screen|assess|select|evaluat|shortlist|review(?:s|ing)? applica|hiring|recruit|bewert|auswahl|auswähl)|sélection|évalu|recrut)|\b(?:screen|assess|select|evaluat)[^.\n]{0,80}(?:artificial intelligence|\bAI\b)/i,
  vacancy_status:
    /\b(?:existing|current) (?:vacancy|position|role|job)\b|\b(?:vacancy|position|role) (?:is (?:currently )?(?:open|vacant)|exists|currently exists)\b|\bnot (?:for )?an existing vacancy|\bfuture (?:vacanc|opening|position)|\btalent pool\b|\bis (?:currently )?vacant\b|\bbestehende (?:Stelle|Vakanz|Position)|\bposte (?:vacant|existant)|\bvacance existante/i,
  overpayment:
    /Überzahlung|Überbezahlung|\bover-?payment\b|\babove the (?:minimum|collective)|über dem (?:Kollektivvertrag|KV|Mindestgehalt)|\bhigher (?:pay|salary) (?:is )?possible/i,
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
