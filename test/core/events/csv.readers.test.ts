import { describe, expect, it } from 'vitest';
import { parseCsv, readCsv } from '../../../src/core/events/csv.js';
import { checkEntries } from '../../../src/core/events/entry.js';
import { readNdjson, topLevelKeys } from '../../../src/core/events/ndjson.js';
import { readYaml } from '../../../src/core/events/yaml.js';
import { formatFinding } from '../../../src/core/errors/findings.js';
import type { ReadResult } from '../../../src/core/events/types.js';

/** Entries as plain values with the line each starts on, and problems as the user reads them. */
function summary(file: string, read: ReadResult) {
  const checked = checkEntries(file, read.entries);
  return {
    entries: checked.entries.map((e) => ({ line: e.position.line, application_id: e.application_id, kind: e.kind, ...(e.data ? { data: e.data } : {}) })),
    problems: [...read.problems, ...checked.findings].map(formatFinding),
  };
}

describe('parseCsv (RFC 4180)', () => {
  const values = (text: string) => parseCsv(text).records.map((r) => r.fields.map((f) => f.value));

  it('splits on commas and CRLF or LF, without a record for the final line break', () => {
    expect(values('a,b\r\nc,d\ne,f\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]);
    expect(values('a,b')).toEqual([['a', 'b']]);
  });

  it('keeps commas, doubled quotes and line breaks inside quotes, and empty fields', () => {
    expect(values('"x, y","say ""hi""","line1\r\nline2",,""\n')).toEqual([['x, y', 'say "hi"', 'line1\r\nline2', '', '']]);
    expect(values('a,\n')).toEqual([['a', '']]);
  });

  it('skips blank lines and counts lines inside quoted fields', () => {
    const { records } = parseCsv('h1,h2\n\n"multi\nline",x\r\n\r\nlast,"q"\n');
    expect(records.map((r) => [r.position.line, r.fields.map((f) => `${f.position.line}:${f.position.column}`)])).toEqual([
      [1, ['1:1', '1:4']],
      [3, ['3:1', '4:7']],
      [6, ['6:1', '6:6']],
    ]);
  });

  it('reports an unclosed quote, text after a closing quote and a quote in an unquoted field', () => {
    expect(parseCsv('a,"open\n').errors).toEqual([{ position: { line: 1, column: 3 }, message: expect.stringMatching(/^a quoted field is never closed/) }]);
    expect(parseCsv('"ab"c,d\n').errors).toEqual([{ position: { line: 1, column: 5 }, message: expect.stringMatching(/^text after a closing quote/) }]);
    expect(parseCsv('a,b"c\n').errors).toEqual([{ position: { line: 1, column: 4 }, message: expect.stringMatching(/^a quote inside an unquoted field/) }]);
  });
});

describe('readCsv', () => {
  it('reads rows under the header in any column order; ids stay text; data is a JSON object', () => {
    const text = 'kind,application_id,data\r\nrecruiter_like,007,\r\nrecruiter_reject,app_2,"{""reason"": ""filled, sorry""}"\r\n';
    expect(summary('e.csv', readCsv('e.csv', text))).toEqual({
      entries: [
        { line: 2, application_id: '007', kind: 'recruiter_like' },
        { line: 3, application_id: 'app_2', kind: 'recruiter_reject', data: { reason: 'filled, sorry' } },
      ],
      problems: [],
    });
  });

  it('does not need a data column', () => {
    expect(summary('e.csv', readCsv('e.csv', 'application_id,kind\n1,recruiter_view\n')).entries).toEqual([
      { line: 2, application_id: '1', kind: 'recruiter_view' },
    ]);
  });

  it('points at the cell of each problem', () => {
    const text = 'application_id,kind,data\nA,recruiter_like,{oops}\n,recruiter_view,\nB,recruiter_view\nC,recruiter_view,"[1]"\n';
    expect(summary('e.csv', readCsv('e.csv', text)).problems).toEqual([
      'e.csv:2:18: data: is not valid JSON (Expected property name or \'}\'); write an object like "{""reason"": ""filled""}" [invalid]',
      'e.csv:4:1: the row has 2 fields but the header has 3 (a value holding a comma must be in double quotes)',
      'e.csv:3:1: application_id: must not be blank [blank]',
      'e.csv:5:18: data: must be an object (key: value pairs), not a list [invalid]',
    ]);
  });

  it('reports unknown and missing columns in the header once', () => {
    expect(summary('e.csv', readCsv('e.csv', 'application_id,knd,notes\nA,recruiter_like,x\n')).problems).toEqual([
      'e.csv:1:16: knd: is not a known column (the columns are application_id, kind, data); did you mean kind? [unknown_field:kind]',
      'e.csv:1:20: notes: is not a known column (the columns are application_id, kind, data) [unknown_field]',
      'e.csv:1:1: kind: has no column in the header; the first line must name the columns, like application_id,kind,data [missing]',
    ]);
  });
});

describe('readNdjson', () => {
  it('reads one object per line, skipping blank lines, with line numbers', () => {
    const text = '{"application_id":"a1","kind":"recruiter_view"}\n\n   \r\n{"kind":"recruiter_like","application_id":42,"data":{"stage":"interview"}}\r\n';
    expect(summary('e.ndjson', readNdjson('e.ndjson', text))).toEqual({
      entries: [
        { line: 1, application_id: 'a1', kind: 'recruiter_view' },
        { line: 4, application_id: '42', kind: 'recruiter_like', data: { stage: 'interview' } },
      ],
      problems: [],
    });
  });

  it('points at the value of each bad field and at syntax errors', () => {
    const text = [
      '{"application_id": "a1", "kind": "recruiter_lik"}',
      '{"application_id": "  ", "kind": "recruiter_view", "data": "no", "extra": 1}',
      '{"application_id": "a3", "kind": "recruiter_view",}',
      '[1, 2]',
      '{"kind": "recruiter_view", "application_id": "a5", "kind": "recruiter_like"}',
      '{"data": {"kind": 1}}',
    ].join('\n');
    expect(summary('e.ndjson', readNdjson('e.ndjson', text)).problems).toEqual([
      expect.stringMatching(/^e\.ndjson:3:\d+: line 3 is not valid JSON: /),
      'e.ndjson:4:1: line 4 is a list, not an object like {"application_id": "...", "kind": "..."}',
      'e.ndjson:5:52: line 5 has the key "kind" more than once',
      'e.ndjson:1:34: kind: is not one of the permitted values (recruiter_view, recruiter_like, recruiter_reject); did you mean recruiter_like? [inclusion]',
      'e.ndjson:2:75: extra: is not a known field (the fields are application_id, kind, data) [unknown_field]',
      'e.ndjson:2:20: application_id: must not be blank [blank]',
      'e.ndjson:2:60: data: must be an object (key: value pairs), not a string [invalid]',
      'e.ndjson:6:1: application_id: is missing (required): the id from the job application callback [missing]',
      'e.ndjson:6:1: kind: is missing (required): one of recruiter_view, recruiter_like, recruiter_reject [missing]',
    ]);
  });

  it('finds top-level keys only, past strings holding braces and quotes', () => {
    expect(topLevelKeys('{"a": {"kind": "x"}, "b\\"}": "{\\"", "c":[{"d":1}]}').map((k) => [k.name, k.keyColumn, k.valueColumn])).toEqual([
      ['a', 2, 7],
      ['b"}', 22, 30],
      ['c', 37, 41],
    ]);
  });

  it('reads an escaped key name as JSON does and skips tabs and spaces around the colon', () => {
    expect(topLevelKeys('{"\\u006bind"\t:\t"x" , "k" :"y"}').map((k) => [k.name, k.keyColumn, k.valueColumn])).toEqual([
      ['kind', 2, 16],
      ['k', 22, 27],
    ]);
  });
});

describe('readYaml', () => {
  it('reads a list of mappings; a plain number id keeps its text', () => {
    const text =
      '# triage of Monday\n- application_id: 007\n  kind: recruiter_like\n- application_id: "app 2"\n  kind: recruiter_reject\n  data:\n    reason: filled\n    score: 3\n- {application_id: 1e3, kind: recruiter_view}\n';
    expect(summary('e.yaml', readYaml('e.yaml', text))).toEqual({
      entries: [
        { line: 2, application_id: '007', kind: 'recruiter_like' },
        { line: 4, application_id: 'app 2', kind: 'recruiter_reject', data: { reason: 'filled', score: 3 } },
        { line: 9, application_id: '1e3', kind: 'recruiter_view' },
      ],
      problems: [],
    });
  });

  it('points at each bad value', () => {
    const text =
      '- application_id: a1\n  kind: viewed\n- application_id:\n  kind: recruiter_view\n  data: [1]\n- just text\n- application_id: a4\n  kind: recruiter_like\n  kinds: x\n';
    expect(summary('e.yaml', readYaml('e.yaml', text)).problems).toEqual([
      'e.yaml:6:3: entry 3 of the list is not a mapping (application_id: ..., kind: ...)',
      'e.yaml:2:9: kind: is not one of the permitted values (recruiter_view, recruiter_like, recruiter_reject); did you mean recruiter_view? [inclusion]',
      'e.yaml:3:18: application_id: must not be blank [blank]',
      'e.yaml:5:9: data: must be an object (key: value pairs), not a list [invalid]',
      'e.yaml:9:10: kinds: is not a known field (the fields are application_id, kind, data); did you mean kind? [unknown_field:kind]',
    ]);
  });

  it('refuses a file that is not one list, and reports syntax errors and duplicate keys with their line', () => {
    expect(summary('e.yaml', readYaml('e.yaml', 'application_id: a\nkind: recruiter_like\n')).problems).toEqual([
      'e.yaml:1:1: the file holds a mapping, not a list of events (- application_id: ...)',
    ]);
    expect(summary('e.yaml', readYaml('e.yaml', '- application_id: a\n  kind: recruiter_like\n  kind: recruiter_view\n')).problems).toEqual([
      expect.stringMatching(/^e\.yaml:3:3: Map keys must be unique/),
    ]);
    expect(summary('e.yaml', readYaml('e.yaml', '- application_id: a\n  kind: [unclosed\n')).problems[0]).toMatch(/^e\.yaml:\d+:\d+: /);
    expect(readYaml('e.yaml', '# nothing\n')).toEqual({ entries: [], problems: [] });
  });
});
