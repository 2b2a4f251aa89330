/**
 * Google's JobPosting requirements as an independent implementation reads them:
 * @adobe/structured-data-validator (a dev dependency), without the schema.org vocabulary (that
 * would be fetched from the network). Its errors are Search Console's critical issues.
 */

/** The package ships no types: the little used here, typed. */
type ValidatorClass = new () => { validate(data: unknown): Promise<unknown[]> };
const PACKAGE: string = '@adobe/structured-data-validator';
let validator: ValidatorClass | undefined;

export interface ValidatorIssue {
  issueMessage: string;
  severity: 'ERROR' | 'WARNING';
  fieldNames?: string[];
}

/** The validator's issues for JSON-LD documents, as if each were one `<script type="application/ld+json">` of a page. */
export async function structuredDataIssues(...documents: Record<string, unknown>[]): Promise<ValidatorIssue[]> {
  // It deletes keys of what it is given: a copy each time.
  const copies = documents.map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>);
  const byType: Record<string, Record<string, unknown>[]> = {};
  for (const d of copies) (byType[String(d['@type'])] ??= []).push(d);
  validator ??= ((await import(PACKAGE)) as { default: ValidatorClass }).default;
  return (await new validator().validate({ jsonld: byType, microdata: {}, rdfa: {} })) as ValidatorIssue[];
}

export const errorsOf = (issues: readonly ValidatorIssue[]) => issues.filter((i) => i.severity === 'ERROR').map((i) => i.issueMessage);
export const warningsOf = (issues: readonly ValidatorIssue[]) => issues.filter((i) => i.severity === 'WARNING').map((i) => i.issueMessage);
