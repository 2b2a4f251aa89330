import { describe, expect, it } from 'vitest';
import { describeMessage, parseMessage } from '../../../src/core/errors/messages.js';
import { renderTreeLines, renderTreeNested } from '../../../src/core/errors/render.js';
import { addError, clearErrors, flattenTree, hasError, isErrorTree, type ErrorTree } from '../../../src/core/errors/tree.js';
import { formatFinding, findingFromProblem } from '../../../src/core/errors/findings.js';
import { findingsFromTree } from '../../../src/core/validation/tree-findings.js';
import { githubAnnotation, sarifLog } from '../../../src/cli/output/formats.js';
import { parseAdverts } from '../../../src/core/adverts/parse.js';

describe('message catalogue', () => {
  it.each([
    ['missing', 'is missing (required)'],
    ['invalid', 'is invalid'],
    ['blank', 'must not be blank'],
    ['taken', 'is already taken'],
    ['inclusion', 'is not one of the permitted values'],
    ['not_a_number', 'must be a number'],
    ['not_an_integer', 'must be an integer'],
    ['greater_than:10', 'must be at most 10'],
    ['greater_than_or_equal_to:10', 'must be less than 10'],
    ['less_than:0', 'must be at least 0'],
    ['less_than_or_equal_to:0', 'must be greater than 0'],
    ['too_long:80', 'is too long (maximum 80 characters)'],
    ['too_short:3', 'is too short (minimum 3 characters)'],
    ['quota_exceeded', 'too many API calls (rate quota exceeded)'],
    ['unauthorized', 'authentication failed'],
    ['not_found', 'was not found'],
    ['unknown_field:title', 'is not a known field; did you mean title?'],
  ])('%s -> %s', (id, text) => {
    expect(describeMessage(id)).toBe(text);
  });

  it('parses identifiers with data segments per the spec pattern', () => {
    expect(parseMessage('too_long:80')).toEqual({ id: 'too_long', data: ['80'] });
    expect(parseMessage('custom_rule:a:b_2')).toEqual({ id: 'custom_rule', data: ['a', 'b_2'] });
    expect(parseMessage('Not valid!')).toBeUndefined();
    expect(parseMessage('too_long:')).toBeUndefined();
  });

  it('leaves unknown identifiers and wrong arity undescribed', () => {
    expect(describeMessage('flux_capacitor')).toBeUndefined();
    expect(describeMessage('too_long')).toBeUndefined();
    expect(describeMessage('has spaces')).toBeUndefined();
  });
});

describe('error tree', () => {
  it('builds nesting from paths and flattens back', () => {
    const tree: ErrorTree = {};
    addError(tree, ['location', 'state'], 'missing');
    addError(tree, [], 'quota_exceeded');
    addError(tree, ['title'], 'blank');
    addError(tree, ['title'], 'blank');
    expect(tree).toEqual({ location: { state: ['missing'] }, base: ['quota_exceeded'], title: ['blank'] });
    expect(flattenTree(tree)).toEqual([
      { path: ['location', 'state'], message: 'missing' },
      { path: [], message: 'quota_exceeded' },
      { path: ['title'], message: 'blank' },
    ]);
  });
  it('clears the messages at a path, dropping emptied objects', () => {
    const tree: ErrorTree = { location: { state: ['missing'] }, title: ['blank'], recruiter: { base: ['invalid'], email: ['invalid'] } };
    clearErrors(tree, ['location', 'state']);
    clearErrors(tree, ['recruiter']);
    clearErrors(tree, ['nothing', 'here']);
    expect(tree).toEqual({ title: ['blank'], recruiter: { email: ['invalid'] } });
  });
  it('recognises the error resource shape and nothing else', () => {
    expect(isErrorTree({ title: ['blank'], location: { city: ['missing'] } })).toBe(true);
    expect(isErrorTree({ title: 'blank' })).toBe(false);
    expect(isErrorTree({ title: [1] })).toBe(false);
    expect(isErrorTree([])).toBe(false);
    expect(isErrorTree(null)).toBe(false);
  });
  it('finds a message at a path, with or without data', () => {
    expect(hasError({ reference: ['taken'] }, ['reference'], 'taken')).toBe(true);
    expect(hasError({ title: ['too_long:80'] }, ['title'], 'too_long')).toBe(true);
    expect(hasError({ reference: ['invalid'] }, ['reference'], 'taken')).toBe(false);
  });
});

describe('renderer', () => {
  const tree: ErrorTree = {
    title: ['too_long:80', 'flux_capacitor'],
    location: { state: ['missing'] },
    base: ['Something \u001b[31mbad\u001b[0m happened'],
  };
  it('renders dotted lines with human text, raw identifiers, verbatim unknowns, sanitized text', () => {
    expect(renderTreeLines(tree)).toEqual([
      'title: is too long (maximum 80 characters) [too_long:80]',
      'title: flux_capacitor',
      'location.state: is missing (required) [missing]',
      '(advert): Something bad happened',
    ]);
  });
  it('renders the nesting as a tree', () => {
    expect(renderTreeNested(tree)).toEqual([
      'title: is too long (maximum 80 characters) [too_long:80]',
      'title: flux_capacitor',
      'location:',
      '  state: is missing (required) [missing]',
      '(advert): Something bad happened',
    ]);
  });
  it('points each error at its YAML line, or the parent mapping when missing', () => {
    const advert = parseAdverts('a.yaml', 'reference: A\ntitle: T\nlocation:\n  country: US\n  city: Austin\n').adverts[0]!;
    const findings = findingsFromTree({ title: ['too_long:80'], location: { state: ['missing'] }, base: ['taken'] }, advert, 'A');
    expect(findings.map(formatFinding)).toEqual([
      'a.yaml:2:8: title: is too long (maximum 80 characters) [too_long:80]',
      'a.yaml:4:3: location.state: is missing: it is required because location.country is US (also for CA, MX) [missing]',
      'a.yaml:1:1: (advert): is already taken [taken]',
    ]);
  });
});

describe('machine formats', () => {
  const advert = parseAdverts('dir/a,b.yaml', 'reference: A\ntitle: ""\n').adverts[0]!;
  const findings = [
    ...findingsFromTree({ title: ['blank'] }, advert),
    findingFromProblem({ file: 'bad.yaml', position: { line: 3, column: 2 }, message: 'bad indentation\nof a mapping', code: 'yaml_syntax' }),
  ];
  it('writes GitHub annotations with escaped properties and data', () => {
    expect(findings.map(githubAnnotation)).toEqual([
      '::error file=dir/a%2Cb.yaml,line=2,col=8,title=jobs%3A blank::title: must not be blank [blank]',
      '::error file=bad.yaml,line=3,col=2,title=jobs%3A yaml_syntax::bad indentation%0Aof a mapping',
    ]);
  });
  it('writes SARIF 2.1.0 with rules and regions', () => {
    const log = sarifLog(findings, '1.2.3') as unknown as {
      version: string;
      runs: { tool: { driver: { name: string; version: string; rules: { id: string }[] } }; results: unknown[] }[];
    };
    expect(log.version).toBe('2.1.0');
    const run = log.runs[0]!;
    expect(run.tool.driver).toMatchObject({ name: 'jobs', version: '1.2.3' });
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(['blank', 'yaml_syntax']);
    expect(run.results[0]).toEqual({
      ruleId: 'blank',
      ruleIndex: 0,
      level: 'error',
      message: { text: 'title: must not be blank [blank]' },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'dir/a,b.yaml' }, region: { startLine: 2, startColumn: 8 } } }],
    });
  });
});

describe('keys named like built-in properties', () => {
  it('keeps __proto__ and constructor as parameters of the tree', () => {
    const tree: ErrorTree = {};
    addError(tree, ['constructor'], 'unknown_field');
    addError(tree, ['__proto__'], 'unknown_field');
    addError(tree, ['location', 'toString'], 'unknown_field');
    expect(Object.getPrototypeOf(tree)).toBe(Object.prototype);
    expect(flattenTree(tree).map((e) => e.path.join('.'))).toEqual(['constructor', '__proto__', 'location.toString']);
    expect(hasError(tree, ['constructor'], 'unknown_field')).toBe(true);
    expect(hasError({}, ['constructor'], 'taken')).toBe(false);
  });
});
