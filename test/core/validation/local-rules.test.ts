import { afterEach, describe, expect, it } from 'vitest';
import { parseAdverts } from '../../../src/core/adverts/parse.js';
import { formatFinding } from '../../../src/core/errors/findings.js';
import { addError } from '../../../src/core/errors/tree.js';
import { checkAdvert, NO_SETTINGS } from '../../../src/core/validation/check.js';
import { LOCAL_RULES, type LocalRule } from '../../../src/core/validation/local-rules.js';
import { findingsFromTree } from '../../../src/core/validation/tree-findings.js';

function findings(yaml: string) {
  const source = parseAdverts('a.yaml', yaml).adverts[0]!;
  const checked = checkAdvert(source, NO_SETTINGS);
  return findingsFromTree(checked.tree, source, checked.reference, { value: checked.payload }).map(formatFinding);
}

describe('the registry of local rules', () => {
  const added: LocalRule[] = [];
  afterEach(() => {
    for (const rule of added.splice(0)) LOCAL_RULES.splice(LOCAL_RULES.indexOf(rule), 1);
  });

  it('a rule added in one place is detected, described and advised', () => {
    const yaml = 'reference: A\ntitle: SENIOR ENGINEER\n';
    expect(findings(yaml).filter((f) => f.includes('shouting'))).toEqual([]);
    const rule: LocalRule = {
      id: 'shouting',
      detect: ({ advert, tree }) => {
        if (typeof advert.title === 'string' && advert.title === advert.title.toUpperCase()) addError(tree, ['title'], 'shouting:caps');
      },
      describe: ([why]) => `is written in ${why === 'caps' ? 'capitals' : why}`,
      advise: (path, value) => (typeof value === 'string' ? `is written in capitals: write ${value.charAt(0)}${value.slice(1).toLowerCase()}` : undefined),
    };
    LOCAL_RULES.push(rule);
    added.push(rule);
    expect(findings(yaml).filter((f) => f.includes('shouting'))).toEqual(['a.yaml:2:8: title: is written in capitals: write Senior engineer [shouting:caps]']);
    // Without advice (a value the rule cannot improve on), the rule's description is the text.
    const tree = { title: ['shouting:caps'] };
    expect(findingsFromTree(tree, undefined, undefined, { value: { title: 7 } }).map(formatFinding)).toEqual(['title: is written in capitals [shouting:caps]']);
  });

  it('each current rule keeps its detection and advice', () => {
    expect(findings('reference: ".."\ntitle: T\nlocation:\n  country: US\ncity: Austin\n').filter((f) => /reference|city/.test(f))).toEqual([
      'a.yaml:5:7: city: is a field of `location`, not of the advert: indent it under `location`, lined up with `country` (2 spaces) [unknown_field]',
      expect.stringMatching(/^a\.yaml:1:12: reference: "\.\." cannot be a reference: .* \[invalid\]$/),
    ]);
  });
});
