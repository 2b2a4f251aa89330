import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { advertYaml, runJobs, tempFolder } from '../../commands/harness.js';
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

describe('a warning is one table entry', () => {
  const added: LocalRule[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const rule of added.splice(0)) LOCAL_RULES.splice(LOCAL_RULES.indexOf(rule), 1);
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const shouting: LocalRule = {
    id: 'shouting',
    severity: 'warning',
    summary: 'A title in capitals reads as shouting.',
    help: 'https://example.test/docs/shouting',
    detect: ({ advert, tree }) => {
      if (typeof advert.title === 'string' && advert.title === advert.title.toUpperCase()) addError(tree, ['title'], 'shouting');
    },
    describe: () => 'is written in capitals',
  };

  async function validate(...args: string[]) {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1').replace('title: Engineer', 'title: ENGINEER') });
    dirs.push(dir);
    return runJobs(['validate', ...args, '.'], { cwd: dir });
  }

  it('a warning rule added to the table warns in every format that carries warnings, and leaves the advert valid', async () => {
    LOCAL_RULES.push(shouting);
    added.push(shouting);
    const human = await validate();
    expect(human.code).toBe(0);
    expect(human.stdout).toBe('⚠ a.yaml:2:8: title: is written in capitals [shouting]\n');
    const sarif = JSON.parse((await validate('-o', 'sarif')).stdout);
    expect(sarif.runs[0].tool.driver.rules).toEqual([
      {
        id: 'shouting',
        shortDescription: { text: 'A title in capitals reads as shouting.' },
        defaultConfiguration: { level: 'warning' },
        helpUri: 'https://example.test/docs/shouting',
      },
    ]);
    expect(sarif.runs[0].results).toMatchObject([{ ruleId: 'shouting', level: 'warning' }]);
    expect((await validate('-o', 'github')).stdout).toBe(
      '::warning file=a.yaml,line=2,col=8,title=jobs%3A shouting::title: is written in capitals [shouting]\n',
    );
    expect(JSON.parse((await validate('-o', 'codequality')).stdout)).toMatchObject([{ check_name: 'jobs/shouting', severity: 'minor' }]);
    // JUnit's format entry says it has no place for warnings: its testcase passes.
    const junit = await validate('-o', 'junit');
    expect(junit.code).toBe(0);
    expect(junit.stdout).not.toContain('shouting');
    expect(JSON.parse((await validate('--json')).stdout)).toMatchObject({ valid: true, warnings: [{ rule: 'shouting', severity: 'warning' }] });
  });

  it('SARIF describes the built-in warning, closed, from its entry, at level warning', async () => {
    const dir = tempFolder({ 'a.yaml': advertYaml('A-1', 'jobs:\n  closes: 2026-12-01\n') });
    dirs.push(dir);
    const sarif = JSON.parse((await runJobs(['validate', '-o', 'sarif', '.'], { cwd: dir, env: { JOBS_TODAY: '2026-12-02' } })).stdout);
    expect(sarif.runs[0].tool.driver.rules).toEqual([
      {
        id: 'closed',
        shortDescription: { text: "The advert's closing date (jobs.closes) has passed: sync deletes it from the service." },
        defaultConfiguration: { level: 'warning' },
      },
    ]);
  });
});
