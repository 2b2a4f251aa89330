/**
 * The fast YAML path must agree with the `yaml` package's reading on every input it accepts:
 * values, document indices and every position locate() gives. Where it is unsure it may bail out
 * (return undefined), but it must not bail on ordinary adverts, or the speed-up is gone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Document, visit, type ToStringOptions } from 'yaml';
import { advertYaml, realisticAdvertYaml } from '../../../bench/generate.mjs';
import { readYamlFast as readYamlAdvertsFast } from '../../../src/core/adverts/fast-yaml.js';
import type { AdvertSource, PathSegment } from '../../../src/core/adverts/types.js';
import { readAdvertYaml } from '../../../src/core/adverts/read-yaml.js';
import { readWithYamlPackage as readYamlAdvertsSlow } from '../../../src/core/adverts/yaml-package-reader.js';
import type { ReadOptions, ReadResult } from '../../../src/core/adverts/types.js';

/** The one entry point, with the `yaml` package loaded (so never a promise). */
const readYamlAdverts = (file: string, text: string, options: ReadOptions): ReadResult =>
  readAdvertYaml(file, text, { ...options, yamlPackage: readYamlAdvertsSlow });
import { advertFieldTypes } from '../../../src/core/generated/validators.js';

const options = { fieldTypes: advertFieldTypes };
const FILE = 'advert.yaml';

/** Values with their exact JS identity: key order, own `__proto__` keys, -0 and NaN all count. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return ['list', value.map(canonical)];
  if (value !== null && typeof value === 'object') {
    return ['map', Object.getOwnPropertyNames(value).map((k) => [k, canonical((value as Record<string, unknown>)[k])])];
  }
  return [typeof value, Object.is(value, -0) ? '-0' : String(value)];
}

/** Every path the slow path can answer for: present values, missing keys, indices and deeper paths. */
function probePaths(value: unknown, path: PathSegment[] = [], out: PathSegment[][] = []): PathSegment[][] {
  out.push(path);
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      probePaths(item, [...path, i], out);
      out.push([...path, String(i)]);
    });
    out.push([...path, value.length], [...path, 'x'], [...path, '01']);
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.getOwnPropertyNames(value)) probePaths((value as Record<string, unknown>)[key], [...path, key], out);
    out.push([...path, 'missing_field'], [...path, 'missing_field', 'deeper'], [...path, 0]);
  } else {
    out.push([...path, 'deeper'], [...path, 0]);
  }
  return out;
}

const summary = (adverts: AdvertSource[]) => adverts.map((a) => ({ file: a.file, index: a.index, value: canonical(a.value) }));

/**
 * Asserts the fast path either bails out or agrees with the slow path exactly. Returns whether it
 * took the fast path.
 */
function agrees(text: string): boolean {
  const fast = readYamlAdvertsFast(FILE, text, options);
  if (fast === undefined) return false;
  const slow = readYamlAdvertsSlow(FILE, text, options);
  expect(slow.problems, `slow path has problems, fast path did not bail:\n${text}`).toEqual([]);
  expect(fast.problems).toEqual([]);
  expect(summary(fast.adverts), text).toEqual(summary(slow.adverts));
  fast.adverts.forEach((advert, i) => {
    const reference = slow.adverts[i]!;
    for (const path of probePaths(reference.value)) {
      expect(advert.locate(path), `locate(${JSON.stringify(path)}) in:\n${text}`).toEqual(reference.locate(path));
    }
  });
  return true;
}

const examplesDir = join(import.meta.dirname, '../../../examples/adverts');
const examples = readdirSync(examplesDir)
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => readFileSync(join(examplesDir, name), 'utf8'));

/** Inputs the fast path must take (not bail on) and get right. */
const mustBeFast: Record<string, string> = {
  'bench advert': advertYaml(7),
  'bench advert, CRLF': advertYaml(8).replace(/\n/g, '\r\n'),
  'realistic bench advert': realisticAdvertYaml(4),
  'realistic bench advert with a bulleted list in a folded block': realisticAdvertYaml(5, { bullets: true }),
  'empty values': 'title:\nquestion:   \nseniority:  # none\nextra:\n',
  'schema typing':
    'reference: 00123\ntitle: NO\nstart_date: 2027-01-15\nseniority: 0x10\neducation: 0o17\ncontract_id: ~\nsalary_id: "3"\nindustry_id: 1e3\nextra: yes\nflag: true\nnum: -5\nneg: -.5\nplus: +1\ninf: .inf\nnan: .NaN\nbig: 123456789012345678901\n',
  'quoted scalars': `a: "x \\" \\\\ \\/ \\n \\t \\r \\0 \\u00e9 # not a comment"\nb: 'it''s # also not'\nc: ""\nd: ''\ne: "1"  # c\nf: '2027-01-15'\n`,
  'plain scalars with odd characters': 'a: b:c\nb: a#b\nc: x, y\nd: x ]\ne: C++\nf: it\'s "q"\ng: é ü 漢字 😀\nh: -abc\ni: a # comment\nj: 100%\n',
  'block literal, all chompings': 'a: |\n  one\n    two\n\n  three\nb: |-\n  x\n\n\nc: |+\n  y\n\n\nd: 1\n',
  'block folded, all chompings': 'a: >\n\n  one\n  two\n\n\n  three\nb: >-\n  x\n  y\nc: >+\n  z\n\n# c\n\nd: 1\n',
  'more-indented folded line': 'a: >\n  x\n    y\n  z\n',
  'bulleted list in a folded block':
    'job_description: >\n  We offer:\n\n    - a desk\n    - été, 漢字\n  and more\n  text.\n\n\n     * deeper\n\n  end\nb: >-\n  text\n    - first\n',
  'bulleted list in a literal block': 'a: |\n  Tasks:\n    - one\n      - two\n\n  done\nb: 1\n',
  'block scalar with comment-like content': 'a: | # header comment\n  # content\n  x\n # a comment\nb: 1\n',
  'block scalar before a document marker': 'a: |+\n  x\n\n---\na: >-\n  y\n',
  'sequences, both indentations': 'skills:\n- a\n- "b"\n- \'c\'\n- 1\nlocation:\n  tags:\n  - x\n  more:\n    - y\n    - [z, "w"]\nz: 1\n',
  'flow sequences': 'skills: [a, "b c", \'d\', 1, true, ~]\nempty: []\nspaced: [ a b ,c ]  # comment\n',
  'flow mappings, nested, with the schema typing their values':
    'jobs: { pay: { min: 55000, max: 70000, currency: EUR, per: year }, remote: { from: [US, "CA"] }, language: en }\n' +
    'location: {country: FR, city: \'Lyon\', state: 00123}  # comment\nempty: {}\nseniority: { }\nx: {a: -5, b: "q # r", c: ~, d: a b , __proto__: 1}\nskills:\n  - {x: 1}\n',
  'comments everywhere':
    '# top\n\n# more\nreference: A # trailing\n  # deeper comment\nlocation: # on key\n    # before\n  country: FR\n# col 0 inside\n  city: Lyon\n\n\n',
  'block scalars in sequences': 'a:\n- |\n x\n- >-\n  y\n  z\nb:\n  - |+\n   w\n\n  - v\n',
  'block literal with leading empty lines': 'a: |\n\n  \n  x\n   y\nb: 1\n',
  'block scalar ended by a less-indented comment': 'a: |\n    x\n  # c\nb: 1\n',
  'sequence at key indentation in a nested mapping': 'a:\n  b:\n  - x\n  c: 1\n',
  'comment between key and nested block': 'a: # c\n  # d\n  b: 1\nc:\n# e\n- x\n',
  'multi-document': '# prelude\n---\nreference: A\n--- # comment\nreference: B\n---\nreference: C\nlocation:\n  city: X\n',
  'nested deeper indentation': 'location:\n      country: FR\n      inner:\n         deep: 1\nafter: 2\n',
  '__proto__ key': '__proto__:\nconstructor:\ntitle: x\n',
  'numeric and dashed keys': '0: x\n1-a: y\nb-: z\n',
  'schema keys under other parents, and their lookalikes':
    'city: 5\nTitle: 5\ntitlf: 5\ntitle: 5\nlocation:\n  title: 5\n  city: 5\n  citY: 5\nrecruiter:\n  email: 5\n  city: 5\n',
  'no final newline': 'reference: A\ntitle: "T"',
  'empty value at end of file': 'reference: A\ntitle:',
};

/** Inputs the fast path may bail on; when it does not, it must agree. Many are errors. */
const mayBail: Record<string, string> = {
  'empty file': '',
  'only comments': '# nothing\n',
  'empty document': 'a: 1\n---\n',
  'document end marker': 'a: 1\n...\n',
  'root sequence': '- a\n',
  'root scalar': 'just text\n',
  'indented root': '  a: 1\n  b: 2\n',
  'multi-line plain': 'a: x\n  y\n',
  'multi-line double-quoted': 'a: "x\n  y"\n',
  'multi-line flow': 'a: [x,\n  y]\n',
  'nested flow': 'a: [x, [y]]\n',
  'flow mapping': 'a: {x: 1}\n',
  'flow mapping, multi-line': 'a: {x: 1,\n  y: 2}\n',
  'flow mapping, odd keys and values':
    'a: {x:1}\nb: {"x": 1}\nc: {x : 1}\nd: {x: }\ne: {x: 1,}\nf: {x: a:b}\ng: {x: [y, {z: 1}]}\nh: {x: 1, x: 2}\ni: {x: &a 1}\nj: {? x}\nk: {x: 1} y\n',
  'flow mapping in a flow sequence': 'a: [{x: 1}]\n',
  'trailing comma': 'a: [x, y,]\n',
  'anchors and aliases': 'a: &x 1\nb: *x\n',
  tag: 'a: !!str 1\n',
  'tags the schema would type': 'organization_type: !!str 3\nseniority: !!str 3\nreference: ! 00123\n',
  'tags that are refused': 'start_date: !!timestamp 2027-01-15\nb: !!binary aGk=\nc: !x y\n',
  directive: '%YAML 1.2\n---\na: 1\n',
  'duplicate key': 'a: 1\na: 2\n',
  'tab indentation': 'a:\n\tb: 1\n',
  'tab in value': 'a: x\ty\n',
  'explicit indentation indicator': 'a: |2\n   x\n',
  'whitespace line deeper than content': 'a: |\n  x\n     \n  y\n',
  'empty block scalar': 'a: |\nb: 1\n',
  'block scalar at end without newline': 'a: |\n  x',
  'keep chomping at end without newline': 'a: |+\n  x\n\n  ',
  'nested mapping in value': 'a: b: c\n',
  'colon at value end': 'a: b:\n',
  'bad dedent': 'a:\n    b: 1\n  c: 2\n',
  'sequence under sequence': 'a:\n- - x\n',
  'sequence of mappings': 'a:\n- b: 1\n  c: 2\n',
  'empty sequence item': 'a:\n- \n- x\n',
  'key with spaces': 'a b: 1\n',
  'quoted key': '"a": 1\n',
  'unknown escape': 'a: "\\x41"\n',
  'surrogate escape': 'a: "\\ud83d\\ude00"\n',
  'text after quote': 'a: "x" y\n',
  'comment glued to quote': 'a: "x"#y\n',
  'indicator start': 'a: @x\nb: `y\n',
  'lone carriage return': 'a: 1\rb: 2\n',
  BOM: '\ufeffa: 1\n',
  'control character': 'a: x\u0007y\n',
  'document marker with content': '--- a: 1\n',
  'long key': `${'k'.repeat(1100)}: 1\n`,
};

describe('readYamlAdvertsFast agrees with the yaml package', () => {
  it.each(examples.map((text, i) => [i, text]))('takes the fast path for example advert file %i', (_i, text) => {
    expect(agrees(text)).toBe(true);
  });

  it.each(Object.entries(mustBeFast))('takes the fast path for: %s', (_name, text) => {
    expect(agrees(text)).toBe(true);
  });

  it.each(Object.entries(mayBail))('bails out or agrees for: %s', (_name, text) => {
    agrees(text);
  });

  it('bails out on errors, so the slow path reports them', () => {
    for (const text of ['a: 1\na: 2\n', 'a: b: c\n', 'a:\n    b: 1\n  c: 2\n', 'a: "x\n', 'a: |\n  x\n     \n']) {
      const slow = readYamlAdvertsSlow(FILE, text, options);
      const fast = readYamlAdvertsFast(FILE, text, options);
      if (slow.problems.length > 0) expect(fast).toBeUndefined();
    }
    expect(readYamlAdverts(FILE, 'a: 1\na: 2\n', options).problems[0]).toMatchObject({ code: 'duplicate_key', position: { line: 2, column: 1 } });
  });

  it('leaves node and depth limits to the slow path', () => {
    const text = 'skills:\n' + Array.from({ length: 50 }, (_, i) => `  - s${i}\n`).join('');
    expect(readYamlAdvertsFast(FILE, text, { ...options, maxNodes: 20 })).toBeUndefined();
    expect(readYamlAdverts(FILE, text, { ...options, maxNodes: 20 }).problems[0]).toMatchObject({ code: 'too_complex' });
    const deep = Array.from({ length: 70 }, (_, i) => `${' '.repeat(i * 2)}k${i}:\n`).join('') + `${' '.repeat(140)}v: 1\n`;
    expect(readYamlAdvertsFast(FILE, deep, options)).toBeUndefined();
  });

  it('readYamlAdverts gives the same answer through either path', () => {
    const text = advertYaml(3);
    const viaFast = readYamlAdverts(FILE, text, options);
    const viaSlow = readYamlAdvertsSlow(FILE, text, options);
    expect(summary(viaFast.adverts)).toEqual(summary(viaSlow.adverts));
    expect(viaFast.adverts[0]!.locate(['location', 'city'])).toEqual({ line: 24, column: 9 });
  });
});

// ---- property tests -------------------------------------------------------------------------

const trickyStrings = [
  '',
  ' ',
  'NO',
  'yes',
  'no',
  'on',
  '00123',
  '2027-01-15',
  '0x10',
  '0o17',
  '~',
  'null',
  'Null',
  'true',
  'False',
  '1e3',
  '.5',
  '-5',
  '+1',
  '-.inf',
  '.NaN',
  '12345678901234567890',
  'a: b',
  'a:b',
  'a #b',
  'a#b',
  '#x',
  '- x',
  '-x',
  '-',
  '[a]',
  '{a}',
  'x]',
  "it's",
  '"q"',
  "'q'",
  'back\\slash',
  'line\nbreak',
  'two\n\nbreaks',
  'trail\n',
  'trail\n\n',
  '\nlead',
  ' lead space',
  'trail space ',
  'é ü 漢字',
  '😀',
  '---',
  '...',
  '%x',
  '@x',
  '`x',
  '&a',
  '*a',
  '!t',
  '|',
  '>',
  '?',
  ':',
  'a,b',
  'a, b',
  'a\tb',
  '\t',
  'bell\u0007',
  '  indented\nlines',
  'more\n  indented\nback',
  'C++',
  'Node.js',
  'x\r\ny',
  'a\\nb',
  '\\u00e9',
  'long words '.repeat(12).trim(),
];

const scalar = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...trickyStrings) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('a', ' ', '\n', ':', '#', '-', '"', "'", '\\', '0', '.'), maxLength: 10 }) },
  { weight: 2, arbitrary: fc.integer({ min: -100000, max: 100000 }) },
  { weight: 1, arbitrary: fc.double({ noDefaultInfinity: false }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

const keys = fc.constantFrom(
  'reference',
  'title',
  'seniority',
  'organization_type',
  'salary_text',
  'start_date',
  'skills',
  'location',
  'country',
  'city',
  'recruiter',
  'email',
  'extra',
  'flag',
  'a-b',
  'x_y',
  'Key9',
  // Lookalikes of schema keys (same length, another letter or case), which the reader must not take for them.
  'Title',
  'titlf',
  'emaiL',
  'skills_',
);

const advertLike = fc.letrec((tie) => ({
  map: fc.array(fc.tuple(keys, tie('value')), { minLength: 1, maxLength: 6 }).map((entries) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) out[k] = v;
    return out;
  }),
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
    { weight: 1, arbitrary: tie('map') },
  ),
})).map;

const stringifyOptions = fc.record({
  defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
  plainKeys: fc.constantFrom(true, true, true, false),
  indentSeq: fc.boolean(),
  indent: fc.constantFrom(2, 4),
  lineWidth: fc.constantFrom(0, 20, 80),
  flowSeqs: fc.boolean(),
  flowMaps: fc.boolean(),
  crlf: fc.boolean(),
  comments: fc.array(fc.tuple(fc.nat(), fc.nat(6)), { maxLength: 3 }),
});

type Rendering = {
  defaultStringType: string;
  plainKeys: boolean;
  indentSeq: boolean;
  indent: number;
  lineWidth: number;
  flowSeqs: boolean;
  /** Every mapping below the root written as a flow mapping (`jobs: { pay: { min: 1 } }`). */
  flowMaps: boolean;
  crlf: boolean;
  comments: [number, number][];
};

function render(docs: Record<string, unknown>[], o: Rendering): string {
  const parts = docs.map((value) => {
    const doc = new Document(value);
    if (o.flowSeqs) visit(doc, { Seq: (_key, node) => void (node.flow = true) });
    if (o.flowMaps) visit(doc, { Map: (_key, node) => void (node !== doc.contents && (node.flow = true)) });
    return doc.toString({
      defaultStringType: o.defaultStringType as ToStringOptions['defaultStringType'],
      defaultKeyType: o.plainKeys ? 'PLAIN' : null,
      indentSeq: o.indentSeq,
      indent: o.indent,
      lineWidth: o.lineWidth,
      minContentWidth: 0,
    });
  });
  let text = parts.join('---\n');
  if (o.comments.length > 0) {
    // Comment lines at random places and indentations: comments between nodes, content inside block scalars.
    const lines = text.split('\n');
    for (const [at, indent] of o.comments) lines.splice(at % (lines.length + 1), 0, `${' '.repeat(indent)}# note`);
    text = lines.join('\n');
  }
  return o.crlf ? text.replace(/\n/g, '\r\n') : text;
}

describe('property: stringified advert-like objects', () => {
  it('reads back exactly as the yaml package reads them, or bails out', () => {
    let fast = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.array(advertLike, { minLength: 1, maxLength: 2 }), stringifyOptions, (docs, o) => {
        runs++;
        if (agrees(render(docs, o as Rendering))) fast++;
      }),
      { numRuns: 300 },
    );
    // The fast path must carry a real share of this traffic, or it is not a fast path.
    expect(fast / runs).toBeGreaterThan(0.25);
  });
});

describe('property: mutated valid texts', () => {
  const seeds = [...examples, ...Object.values(mustBeFast)];
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 3 }) }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      text: fc.constantFrom(
        ' ',
        '  ',
        ':',
        ': ',
        '#',
        ' #',
        '-',
        '- ',
        '\n',
        '\r\n',
        '\r',
        '"',
        "'",
        '|',
        '>',
        '|-',
        '>+',
        '[',
        ']',
        ',',
        '\t',
        'a',
        '0',
        '{',
        '&',
        '*',
        '!',
        '%',
        '?',
        '\\',
        '.',
        '---\n',
        '...\n',
        '\ufeff',
      ),
    }),
  );

  it('never returns a result that differs from the slow path', () => {
    fc.assert(
      fc.property(fc.nat(seeds.length - 1), fc.array(mutation, { minLength: 1, maxLength: 3 }), (seed, mutations) => {
        let text = seeds[seed]!;
        for (const m of mutations) {
          const at = m.at % (text.length + 1);
          text = m.kind === 'delete' ? text.slice(0, at) + text.slice(at + m.length) : text.slice(0, at) + m.text + text.slice(at);
        }
        agrees(text);
      }),
      { numRuns: 600 },
    );
  });
});

describe('property: generated YAML text', () => {
  // Text written line by line the way people write adverts (varied indentation, both sequence styles,
  // block scalars with tricky content, comments and blank lines anywhere), then sometimes one line
  // shifted or one odd fragment dropped in. Many inputs are valid, so the fast path's structure
  // handling is tested, not only its bail-outs.
  const inlineValues = [
    'x',
    'a b',
    'NO',
    '00123',
    '1',
    '-5',
    '0x10',
    '~',
    '"q # r"',
    '"\\u00e9\\n\\"x"',
    "'s''t'",
    '[a, "b", 2]',
    '[]',
    '{ a: 1, b: "x" }',
    '{min: 1, max: [2, c]}',
    '{}',
    'x # c',
    'a:b',
    'é',
    'C++, Go',
  ];
  const oddValues = ['a: b', 'c:', '- d', '"unterminated', '&a x', '*a', '{a: 1}', '|2', '? x', '!t x', '[a, [b]]', 'x\ty'];
  const contentLines = ['text', 'more  text ', '# not a comment', 'a: b', '- x', '---x', "it's"];
  type Gen = fc.GeneratorValue;

  const pick = <T>(g: Gen, items: readonly T[]): T => items[g(fc.nat, items.length - 1)]!;
  const pad = (n: number) => ' '.repeat(n);

  function filler(g: Gen, out: string[]): void {
    if (g(fc.nat, 5) === 0) out.push(pick(g, ['', '  ', `${pad(g(fc.nat, 6))}# comment`, '#']));
  }

  function blockContent(g: Gen, indent: number, out: string[]): void {
    const base = indent + 1 + g(fc.nat, 2);
    for (let n = g(fc.integer, { min: 1, max: 4 }); n > 0; n--) {
      const kind = g(fc.nat, 6);
      if (kind === 0) out.push('');
      else if (kind === 1) out.push(pad(g(fc.nat, base)));
      else out.push(pad(base + (kind === 2 ? g(fc.nat, 2) : 0)) + pick(g, contentLines));
    }
  }

  function scalarOrBlock(g: Gen, prefix: string, indent: number, out: string[]): void {
    if (g(fc.nat, 3) === 0) {
      out.push(`${prefix} ${pick(g, ['|', '>'])}${pick(g, ['', '-', '+'])}${g(fc.boolean) ? '' : ' # c'}`);
      blockContent(g, indent, out);
    } else {
      out.push(`${prefix} ${g(fc.nat, 12) === 0 ? pick(g, oddValues) : pick(g, inlineValues)}`);
    }
  }

  function mapping(g: Gen, indent: number, depth: number, out: string[]): void {
    const keys = ['title', 'skills', 'location', 'city', 'seniority', 'k', 'x-y', '__proto__', 'k'];
    for (let n = g(fc.integer, { min: 1, max: 4 }); n > 0; n--) {
      filler(g, out);
      const key = `${pad(indent)}${pick(g, keys)}:`;
      const kind = depth > 2 ? g(fc.nat, 1) : g(fc.nat, 4);
      if (kind <= 1) scalarOrBlock(g, key, indent, out);
      else if (kind === 2) {
        out.push(key);
        filler(g, out);
        mapping(g, indent + 1 + g(fc.nat, 3), depth + 1, out);
      } else if (kind === 3) {
        out.push(key);
        const seqIndent = indent + (g(fc.boolean) ? 0 : 1 + g(fc.nat, 2));
        for (let i = g(fc.integer, { min: 1, max: 3 }); i > 0; i--) {
          filler(g, out);
          scalarOrBlock(g, `${pad(seqIndent)}-`, seqIndent, out);
        }
      } else out.push(key);
    }
  }

  it('never returns a result that differs from the slow path', () => {
    let fast = 0;
    fc.assert(
      fc.property(fc.gen(), fc.boolean(), (g, crlf) => {
        const lines: string[] = [];
        for (let docs = g(fc.integer, { min: 1, max: 2 }); docs > 0; docs--) {
          if (lines.length > 0 || g(fc.boolean)) lines.push('---');
          mapping(g, 0, 0, lines);
        }
        if (g(fc.nat, 3) === 0) {
          const at = g(fc.nat, lines.length - 1);
          lines[at] = g(fc.boolean) ? ` ${lines[at]}` : lines[at]!.replace(/^ /, '');
        }
        const text = lines.join('\n') + (g(fc.nat, 8) === 0 ? '' : '\n');
        if (agrees(crlf ? text.replace(/\n/g, '\r\n') : text)) fast++;
      }),
      { numRuns: 1500 },
    );
    expect(fast).toBeGreaterThan(300);
  });
});
