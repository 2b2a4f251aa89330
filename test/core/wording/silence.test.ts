import { describe, expect, it } from 'vitest';
import { applyIgnores, ignoreComments, unknownIgnores, wordLocator } from '../../../src/core/wording/silence.js';
import type { Finding } from '../../../src/core/errors/findings.js';

const warning = (line: number, rule: string): Finding => ({
  kind: 'field',
  file: 'a.yaml',
  line,
  column: 3,
  path: 'job_description',
  message: rule,
  text: 't',
  rule,
  severity: 'warning',
});

describe('jobs-ignore comments', () => {
  it('are read in YAML and Markdown, several ids to a comment, with their line and column; not inside a word', () => {
    const text = 'title: X # jobs-ignore wording/ableist, wording/age-coded\n<!-- jobs-ignore wording/condescending -->\nurl: http://x/#jobs-ignore\n';
    expect(ignoreComments(text, 5, { values: [], body: text.indexOf('<!--') })).toEqual([
      { line: 5, column: 10, rules: ['wording/ableist', 'wording/age-coded'] },
      { line: 6, column: 1, rules: ['wording/condescending'] },
    ]);
  });

  it('silence a finding of their rule on their line or the next, and no other; an unused one is a warning', () => {
    const comments = [{ line: 4, column: 1, rules: ['wording/ableist', 'wording/age-coded'] }];
    const { kept, unused } = applyIgnores('a.yaml', comments, [warning(5, 'wording/ableist'), warning(6, 'wording/ableist'), warning(5, 'closed')]);
    expect(kept.map((f) => `${f.line} ${f.rule}`)).toEqual(['6 wording/ableist', '5 closed']);
    expect(unused.map((f) => `${f.line}:${f.column} ${f.rule} ${f.text}`)).toEqual([
      '4:1 wording/unused-ignore jobs-ignore wording/age-coded silences nothing: no wording/age-coded finding on this line or the next; remove the comment',
    ]);
  });

  it('an id that names no wording rule is a problem at the comment, with the nearest id', () => {
    expect(unknownIgnores('a.yaml', [{ line: 2, column: 9, rules: ['wording/ablist'] }])).toEqual([
      expect.objectContaining({
        code: 'unknown_ignore',
        position: expect.objectContaining({ line: 2, column: 9 }),
        message: expect.stringContaining('did you mean wording/ableist?'),
      }),
    ]);
  });
});

describe('wordLocator', () => {
  it('finds the same occurrence of a word in a block scalar, else where the value starts', () => {
    const text = 'job_description: |\n  lead the lead\n  team leads\n';
    const value = { job_description: 'lead the lead\nteam leads\n' };
    const at = wordLocator(text, 1, value, () => ({ line: 1, column: 18 }));
    expect(at(['job_description'], 9)).toEqual({ line: 2, column: 12 });
    expect(at(['job_description'], 19)).toEqual({ line: 3, column: 8 });
  });

  it('follows escapes of a double-quoted scalar to the character they write; a value not written as read answers where it starts', () => {
    const at = wordLocator('x: "a\\u0041b"\ny: from the config\n', 1, { x: 'aAb', y: 'a default' }, (path) => ({ line: path[0] === 'x' ? 1 : 2, column: 4 }));
    expect([0, 1, 2].map((i) => at(['x'], i).column)).toEqual([5, 6, 12]);
    expect(at(['y'], 2)).toEqual({ line: 2, column: 4 });
  });
});
