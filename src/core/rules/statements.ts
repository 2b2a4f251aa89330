/**
 * What the text that is sent says: the statements a rule asks an advert to make (benefits, the
 * application deadline, whether AI screens applicants, whether the vacancy exists, whether pay above
 * the minimum is possible) found by the words that make them, in English, German and French. An
 * advert that says it in other words states it in `jobs.disclosures` (disclosures.ts): the tool
 * adds that to the job description, where the candidate reads it.
 */
import type { CheckKind } from './types.js';

export type StatementKind = Exclude<CheckKind, 'pay_range' | 'forbidden_text' | 'neutral_title'>;

// `\b` knows only ASCII letters: a word that starts with one of äöüéÜ is matched without it. Each
// pattern's words share one leading `\b`: the alternatives behind it are tried only at a word's start
// (twice as fast on a long text as a `\b` in each alternative).
export const STATEMENT_WORDS: Record<StatementKind, RegExp> = {
  benefits:
    /\b(?:benefits?\b|perks\b|health (?:insurance|care|plan)|medical(?:,| and| insurance| coverage| plan)|dental\b|401\(?k\)?|paid time off\b|PTO\b|pension\b|retirement plan|Sozialleistungen|Zusatzleistungen|Krankenversicherung|Altersvorsorge|avantages\b|mutuelle\b)/i,
  deadline:
    /\b(?:apply (?:by|before)\b|deadline\s*:|application deadline|closing date\b|applications? (?:close|closes|are accepted until|will be accepted|(?:are )?accepted (?:until|through))|(?:posting|position|vacancy|job|advert) closes\b|deadline to apply|accepting applications (?:until|through)|on an ongoing basis|on a rolling basis|applications are ongoing|Bewerbungsfrist|Bewerbungsschluss|bewerben bis|Bewerbungen bis|date limite|candidatures jusqu|(?:postulez|candidatez) avant\b)/i,
  ai_screening:
    /(?:artificial intelligence|\bAI\b|künstliche[rn]? Intelligenz|\bKI\b|intelligence artificielle|\bIA\b)[^.\n]{0,80}(?:\b(?:screen|assess|select|evaluat|shortlist|review(?:s|ing)? applica|hiring|recruit|bewert|auswahl|auswähl)|sélection|évalu|recrut)|\b(?:screen|assess|select|evaluat)[^.\n]{0,80}(?:artificial intelligence|\bAI\b)/i,
  vacancy_status:
    /\b(?:(?:existing|current) (?:vacancy|position|role|job)\b|(?:vacancy|position|role) (?:is (?:currently )?(?:open|vacant)|exists|currently exists)\b|not (?:for )?an existing vacancy|future (?:vacanc|opening|position)|talent pool\b|is (?:currently )?vacant\b|bestehende (?:Stelle|Vakanz|Position)|poste (?:vacant|existant)|vacance existante)/i,
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
