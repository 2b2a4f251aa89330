import { describe, expect, it } from 'vitest';
import { parseAdverts } from '../../../src/core/adverts/parse.js';

const one = (text: string) => {
  const r = parseAdverts('a.yaml', text);
  expect(r.problems).toEqual([]);
  expect(r.adverts).toHaveLength(1);
  return r.adverts[0]!;
};

describe('schema-directed scalars', () => {
  it('keeps the exact source text of unquoted values in string fields', () => {
    const a = one('reference: 00123\ntitle: yes\nsalary_text: 50000\nstart_date: 2027-01-15\nlocation:\n  country: NO\n  city: 1e3\n');
    expect(a.value).toEqual({
      reference: '00123',
      title: 'yes',
      salary_text: '50000',
      start_date: '2027-01-15',
      location: { country: 'NO', city: '1e3' },
    });
  });

  it('reads YAML 1.2 core numbers in integer fields and never turns quoted text into a number', () => {
    const a = one('seniority: 3\neducation: 0x10\ncontract_id: "1"\nsalary_id: 2.5\nindustry_id: true\ndepartment_id: permanent\n');
    expect(a.value).toEqual({ seniority: 3, education: 16, contract_id: '1', salary_id: 2.5, industry_id: true, department_id: 'permanent' });
  });

  it('types organization_type as an integer when it looks like one, else keeps the text', () => {
    const a = one('organization_type: 2\nrecruiter:\n  organization_type: agency\n');
    expect(a.value).toEqual({ organization_type: 2, recruiter: { organization_type: 'agency' } });
  });

  it('treats empty, ~ and null as null in every field', () => {
    const a = one('title:\nseniority: ~\nquestion: null\n');
    expect(a.value).toEqual({ title: null, seniority: null, question: null });
  });

  it('keeps skills items as text', () => {
    expect(one('skills: [1, true, C++]\n').value).toEqual({ skills: ['1', 'true', 'C++'] });
  });

  it('uses core typing for fields the schema does not know', () => {
    expect(one('extra: 5\nflag: true\nname: NO\n').value).toEqual({ extra: 5, flag: true, name: 'NO' });
  });

  it('resolves aliases', () => {
    const a = one('location: &loc\n  country: FR\n  city: Lyon\nrecruiter:\n  email: a@b.example\nskills: [&s Go, *s]\n');
    expect(a.value.skills).toEqual(['Go', 'Go']);
  });
});

describe('positions', () => {
  const text = 'reference: X-1\ntitle: Hello\nlocation:\n  country: FR\n  city: Lyon\nskills:\n  - a\n  - b\n';
  it('points at the value of a path', () => {
    const a = one(text);
    expect(a.locate(['title'])).toEqual({ line: 2, column: 8 });
    expect(a.locate(['location', 'city'])).toEqual({ line: 5, column: 9 });
    expect(a.locate(['skills', '1'])).toEqual({ line: 8, column: 5 });
  });
  it('points at the parent mapping when the value is missing', () => {
    const a = one(text);
    expect(a.locate(['location', 'state'])).toEqual({ line: 4, column: 3 });
    expect(a.locate(['recruiter'])).toEqual({ line: 1, column: 1 });
  });
  it('counts lines per document in a multi-document file', () => {
    const r = parseAdverts('a.yaml', 'reference: A\n---\nreference: B\ntitle: T\n');
    expect(r.adverts.map((a) => [a.index, a.value.reference, a.locate(['title']).line])).toEqual([
      [0, 'A', 1],
      [1, 'B', 4],
    ]);
  });
});

describe('bad input', () => {
  it('reports YAML syntax errors with a position and a snippet', () => {
    const r = parseAdverts('bad.yaml', 'reference: A\ntitle: [unclosed\nseniority: 2\n');
    expect(r.adverts).toEqual([]);
    expect(r.problems[0]).toMatchObject({ file: 'bad.yaml', code: 'yaml_syntax' });
    expect(r.problems[0]!.position!.line).toBeGreaterThanOrEqual(2);
  });
  it('reports duplicate keys', () => {
    const r = parseAdverts('d.yaml', 'title: A\ntitle: B\n');
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({ code: 'duplicate_key', position: { line: 2, column: 1 } });
    expect(r.problems[0]!.message).toBe('title: duplicate key; first at line 1 (a field is written once: keep one of the two)');
  });
  it('reports an empty file and a comment-only file', () => {
    for (const text of ['', '# nothing here\n', '---\n']) {
      const r = parseAdverts('e.yaml', text);
      expect(r.problems).toEqual([
        { file: 'e.yaml', position: { line: 1, column: 1 }, code: 'empty', message: 'the file holds no advert (it is empty or only comments)' },
      ]);
    }
  });
  it('reports documents that are not mappings', () => {
    const r = parseAdverts('l.yaml', '- a\n- b\n---\njust text\n');
    expect(r.problems.map((p) => [p.code, p.position?.line, p.message])).toEqual([
      ['not_a_mapping', 1, 'document 1 is a list, not a mapping of advert fields (reference: ..., title: ...)'],
      ['not_a_mapping', 4, 'document 2 is a single value, not a mapping of advert fields (reference: ..., title: ...)'],
    ]);
  });
  it('refuses binary and non-UTF-8 bytes', () => {
    expect(parseAdverts('b.yaml', new Uint8Array([0x74, 0x00, 0x01])).problems[0]!.code).toBe('binary');
    expect(parseAdverts('b.yaml', new Uint8Array([0x74, 0x3a, 0x20, 0xff, 0xfe])).problems[0]!.code).toBe('encoding');
    // A lone continuation byte after valid non-ASCII text, and a truncated sequence at the very end.
    expect(parseAdverts('b.yaml', Buffer.from([...Buffer.from('title: é '), 0x80, 0x0a])).problems[0]!.code).toBe('encoding');
    expect(parseAdverts('b.yaml', Buffer.from([...Buffer.from('title: é\n'), 0xe2, 0x82])).problems[0]!.code).toBe('encoding');
  });
  it('reads a replacement character written in the file as text', () => {
    const r = parseAdverts('r.yaml', Buffer.from('reference: A\ntitle: "caf\ufffd é"\n'));
    expect(r.problems).toEqual([]);
    expect(r.adverts[0]!.value).toEqual({ reference: 'A', title: 'caf\ufffd é' });
  });
  it('refuses files over the size limit', () => {
    const big = new Uint8Array(64 * 1024 * 1024 + 1).fill(0x61);
    expect(parseAdverts('big.yaml', big).problems[0]).toMatchObject({
      code: 'too_large',
      message: 'the file is 67108865 bytes; the limit is 67108864 (64 MiB) per file: split its documents over several files',
    });
  });
  it('bounds alias expansion (billion laughs) instead of hanging', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(', ')}]`,
      );
    const started = Date.now();
    const r = parseAdverts('bomb.yaml', `${lines.join('\n')}\n`);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r.adverts).toEqual([]);
    expect(r.problems[0]).toMatchObject({ code: 'too_complex' });
  });
  it('bounds the characters aliases repeat, and names the alias that passes the bound', () => {
    const text = `skills:\n  - &big ${'a'.repeat(400_000)}\n  - *big\n  - *big\n  - *big\n`;
    const r = parseAdverts('bomb.yaml', text);
    expect(r.adverts).toEqual([]);
    expect(r.problems).toEqual([
      {
        file: 'bomb.yaml',
        position: { line: 5, column: 5 },
        code: 'too_complex',
        message: 'the alias *big makes aliases repeat over 1000000 characters in the document (an alias bomb?); write the value out once, or use fewer aliases',
      },
    ]);
    // Two repeats are within the bound; keys repeated by an aliased mapping count too.
    expect(parseAdverts('ok.yaml', text.replace(/ {2}- \*big\n$/, '')).problems).toEqual([]);
    const keys = `a: &m {${'k'.repeat(600_000)}: 1}\nb: *m\nc: *m\n`;
    expect(parseAdverts('keys.yaml', keys).problems[0]).toMatchObject({ code: 'too_complex', position: { line: 3, column: 4 } });
  });
  it('finds a repeated key in a mapping of 50,000 keys at once, where it is', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `"k${i}": x`);
    lines.push('"k7": y');
    const started = Date.now();
    const r = parseAdverts('d.yaml', `${lines.join('\n')}\n`);
    // The yaml package's own check compared each key with every earlier one: minutes at 300,000 keys.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.problems).toEqual([
      expect.objectContaining({
        code: 'duplicate_key',
        position: { line: 50_001, column: 1 },
        message: 'k7: duplicate key; first at line 8 (a field is written once: keep one of the two)',
      }),
    ]);
  });
  it('strips a UTF-8 byte order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('reference: A\n')]);
    expect(parseAdverts('bom.yaml', bytes).adverts[0]!.value).toEqual({ reference: 'A' });
  });
});

describe('keys named like built-in properties', () => {
  it('reads __proto__ and constructor as plain fields, without crashing', () => {
    const r = parseAdverts('p.yaml', 'reference: A\n__proto__: 5\nconstructor: x\n');
    expect(r.problems).toEqual([]);
    const value = r.adverts[0]!.value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['reference', '__proto__', 'constructor']);
    expect(value.constructor).toBe('x');
  });
});

describe('explicit tags', () => {
  it('reads !!str and ! as text whatever the field type says', () => {
    const r = parseAdverts('t.yaml', 'organization_type: !!str 3\nseniority: !!str 3\nreference: ! 00123\nskills: [!!str 1]\n');
    expect(r.problems).toEqual([]);
    expect(r.adverts[0]!.value).toEqual({ organization_type: '3', seniority: '3', reference: '00123', skills: ['1'] });
  });

  it('refuses every other tag at the tag, the same in every time zone', () => {
    const r = parseAdverts('t.yaml', 'title: x\nstart_date: !!timestamp 2027-01-15\nskills: !!set {a}\nquestion: !!int 3\n');
    expect(r.adverts).toEqual([]);
    expect(r.problems.map((p) => [p.code, p.position, p.message.split(':')[0]])).toEqual([
      ['yaml_tag', { line: 2, column: 13 }, 'the YAML tag !!timestamp is not supported'],
      ['yaml_tag', { line: 3, column: 9 }, 'the YAML tag !!set is not supported'],
      ['yaml_tag', { line: 4, column: 11 }, 'the YAML tag !!int is not supported'],
    ]);
  });
});

describe('indentation mistakes', () => {
  const problems = (text: string) => parseAdverts('i.yaml', text).problems.map((p) => `${p.position!.line}:${p.position!.column} ${p.code} ${p.message}`);

  it('names the item of a list that is indented less than the others', () => {
    expect(problems('title: x\nskills:\n  - Go\n - Rust\n')).toEqual([
      '4:2 yaml_indentation the item `- Rust` is indented less than the other items of `skills` (1 space, not 2); line it up with `- Go` (2 spaces)',
    ]);
  });

  it('offers both places for a field the schema does not know', () => {
    expect(problems('location:\n    country: FR\n  zzz: 1\n')).toEqual([
      '3:3 yaml_indentation `zzz` is indented less than the other fields of `location` (2 spaces, not 4); line it up with `country` (4 spaces) if it belongs to `location`, or line it up with `location` (0 spaces) if it does not',
    ]);
  });

  it('is not confused by block scalars, comments, sequences at key indentation or earlier documents', () => {
    const text = 'title: a\n---\njob_description: |\n  text\n    more: x\n# note\nskills:\n- Go\nlocation:\n  country: FR\n   city: Oslo\n';
    expect(problems(text)).toEqual([
      '11:4 yaml_indentation `city` is indented more than `country` above it (3 spaces, not 2), so YAML reads it as part of the value of `country`; line it up with `country`',
    ]);
  });

  it("leaves other syntax errors in the parser's words", () => {
    expect(parseAdverts('b.yaml', 'title: [unclosed\nseniority: 2\n').problems[0]).toMatchObject({ code: 'yaml_syntax' });
    expect(parseAdverts('b.yaml', 'title: [unclosed\nseniority: 2\n').problems[0]!.message).toBe(
      'Flow sequence in block collection must be sufficiently indented and end with a ]',
    );
  });
});
