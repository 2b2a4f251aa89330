/** Events files: a number in the data that would not be sent as written is a finding at its line (exit 3). */
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../../src/core/events/csv.js';
import { readNdjson } from '../../../src/core/events/ndjson.js';
import { readYaml } from '../../../src/core/events/yaml.js';
import { formatFinding } from '../../../src/core/errors/findings.js';

const HINT = 'write it as a string (in quotes) to send it as written';

describe('numbers in events files', () => {
  it('NDJSON: points at the number; numbers that survive pass', () => {
    const text =
      '{"application_id":"a1","kind":"recruiter_like","data":{"x":1e400}}\n{"application_id":"a2","kind":"recruiter_like","data":{"x":0.25,"s":"1e400"}}\n';
    const read = readNdjson('e.ndjson', text);
    expect(read.problems.map(formatFinding)).toEqual([`e.ndjson:1:60: 1e400 is out of range (it would be sent as null); ${HINT}`]);
    expect(read.entries).toHaveLength(1);
  });

  it('NDJSON: integers of up to 15 digits pass; a 16-digit one that is no double is found', () => {
    const line = (n: string) => `{"application_id":"a","kind":"recruiter_like","data":{"n":${n}}}`;
    const text = [line('999999999999999'), line('-999999999999999'), line('9007199254740992'), line('9007199254740993'), line('-12345678901234567')].join('\n');
    expect(readNdjson('e.ndjson', text).problems.map(formatFinding)).toEqual([
      `e.ndjson:4:59: 9007199254740993 cannot be represented exactly (it would be sent as 9007199254740992); ${HINT}`,
      `e.ndjson:5:59: -12345678901234567 cannot be represented exactly (it would be sent as -12345678901234568); ${HINT}`,
    ]);
  });

  it('CSV: the data cell', () => {
    const read = readCsv('e.csv', 'application_id,kind,data\na1,recruiter_like,"{""x"":12345678901234567890}"\na2,recruiter_like,"{""x"":12}"\n');
    expect(read.problems.map(formatFinding)).toEqual([
      `e.csv:2:19: data: 12345678901234567890 cannot be represented exactly (it would be sent as 12345678901234567000); ${HINT} [invalid]`,
    ]);
  });

  it('YAML: in the data, through aliases too; an application id written as a number keeps its text', () => {
    const text =
      '- application_id: 12345678901234567890\n  kind: recruiter_like\n  data:\n    y: &a 99999999999999999999\n- application_id: a2\n  kind: recruiter_like\n  data: {z: *a, w: 3}\n- application_id: a3\n  kind: recruiter_view\n  data: {n: -.inf}\n';
    expect(readYaml('e.yaml', text).problems.map(formatFinding)).toEqual([
      `e.yaml:4:11: data: 99999999999999999999 cannot be represented exactly (it would be sent as 100000000000000000000); ${HINT}`,
      `e.yaml:7:13: data: 99999999999999999999 cannot be represented exactly (it would be sent as 100000000000000000000); ${HINT}`,
      `e.yaml:10:13: data: -.inf has no JSON form (it would be sent as null); ${HINT}`,
    ]);
    expect(readYaml('e.yaml', '- application_id: 12345678901234567890\n  kind: recruiter_like\n  data: {w: 0.1}\n').problems).toEqual([]);
  });
});
