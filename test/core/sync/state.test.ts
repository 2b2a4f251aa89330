/** The sync state's keys: services under any spelling of their URL, references that are property names. */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyncState, type AdvertRecord } from '../../../src/core/sync/state.js';
import { AdvertSetHash, readStateCheck } from '../../../src/core/sync/state-check.js';
import { canonicalServiceKey } from '../../../src/core/config/service-key.js';
import { readJournal } from '../../../src/core/events/journal.js';
import { tempDir } from '../../support/temp-dirs.js';

const record = (hash: string, published_at = '2026-01-01T00:00:00.000Z'): AdvertRecord => ({
  file: 'a.yaml',
  document: 0,
  hash,
  fields: { title: 'x' },
  published_at,
});
const tempPath = (name: string) => join(tempDir('jobs-state-unit-'), name);

describe('canonicalServiceKey', () => {
  it('gives one key for every spelling of a service', () => {
    for (const spelling of [
      'https://jobs.example.com/api',
      'HTTPS://Jobs.Example.COM/api',
      'https://jobs.example.com:443/api/',
      'https://jobs.example.com/api/./',
      'https://jobs.example.com/v1/../api//',
      ' https://jobs.example.com/api ',
    ]) {
      expect(canonicalServiceKey(spelling), spelling).toBe('https://jobs.example.com/api');
    }
    expect(canonicalServiceKey('http://127.0.0.1:80/')).toBe('http://127.0.0.1');
    expect(canonicalServiceKey('HTTP://127.0.0.1:4011/./')).toBe('http://127.0.0.1:4011');
  });

  it('keeps apart what is not the same service', () => {
    expect(canonicalServiceKey('http://jobs.example.com/api')).not.toBe(canonicalServiceKey('https://jobs.example.com/api'));
    expect(canonicalServiceKey('https://jobs.example.com:8443/api')).not.toBe(canonicalServiceKey('https://jobs.example.com/api'));
    expect(canonicalServiceKey('https://jobs.example.com/API')).not.toBe(canonicalServiceKey('https://jobs.example.com/api'));
    expect(canonicalServiceKey('sandbox')).toBe('sandbox');
  });
});

describe('SyncState', () => {
  it('records __proto__, constructor and hasOwnProperty like any reference, and writes them to the file', () => {
    const path = tempPath('state.json');
    const state = SyncState.load(path);
    for (const reference of ['__proto__', 'constructor', 'hasOwnProperty']) state.put('https://jobs.example.com', reference, record(reference));
    state.save();
    const again = SyncState.load(path);
    expect([...again.adverts('https://jobs.example.com').keys()]).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
    expect(again.adverts('https://jobs.example.com').get('__proto__')?.hash).toBe('__proto__');
    expect(again.adverts('https://jobs.example.com').get('toString')).toBeUndefined();
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).services['https://jobs.example.com'].adverts)).toEqual([
      '__proto__',
      'constructor',
      'hasOwnProperty',
    ]);
  });

  it('merges the records of keys that name one service; the latest record of a reference wins', () => {
    const path = tempPath('state.json');
    writeFileSync(
      path,
      JSON.stringify({
        version: 1,
        services: {
          'HTTPS://jobs.example.com:443/api/': { adverts: { A: record('old', '2026-01-01T00:00:00.000Z'), B: record('b') } },
          'https://jobs.example.com/api': { adverts: { A: record('new', '2026-02-01T00:00:00.000Z'), C: record('c') } },
          sandbox: { adverts: { S: record('s') } },
        },
      }),
    );
    const state = SyncState.load(path);
    const adverts = state.adverts('https://JOBS.example.com/api/.');
    expect([...adverts.keys()].sort()).toEqual(['A', 'B', 'C']);
    expect(adverts.get('A')?.hash).toBe('new');
    expect([...state.adverts('sandbox').keys()]).toEqual(['S']);
    // Read under old keys, written under the normalised one the next time something is recorded.
    state.remove('https://jobs.example.com/api', 'B');
    state.save();
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).services)).toEqual(['https://jobs.example.com/api', 'sandbox']);
  });

  it('folds a log written under another spelling into the same service', () => {
    const path = tempPath('state.json');
    writeFileSync(`${path}.log`, `${JSON.stringify({ op: 'put', service: 'HTTP://127.0.0.1:4011/', reference: '__proto__', record: record('p') })}\n`);
    expect(SyncState.load(path).adverts('http://127.0.0.1:4011').get('__proto__')?.hash).toBe('p');
  });
});

describe('the sync log', () => {
  const put = (reference: string, hash: string) => `${JSON.stringify({ op: 'put', service: 'sandbox', reference, record: record(hash) })}\n`;

  it('ignores a torn last line (a kill mid-write) and cuts it off before appending', () => {
    const path = tempPath('state.json');
    writeFileSync(`${path}.log`, `${put('A', 'a')}{"op":"put","serv`);
    const state = SyncState.load(path);
    expect([...state.adverts('sandbox').keys()]).toEqual(['A']);
    state.put('sandbox', 'B', record('b'));
    expect(readFileSync(`${path}.log`, 'utf8')).toBe(put('A', 'a') + put('B', 'b'));
  });

  it('adds the newline a whole last line lacks before appending', () => {
    const path = tempPath('state.json');
    writeFileSync(`${path}.log`, put('A', 'a').trimEnd());
    const state = SyncState.load(path);
    state.put('sandbox', 'B', record('b'));
    expect(readFileSync(`${path}.log`, 'utf8')).toBe(put('A', 'a') + put('B', 'b'));
  });

  it('refuses a log, a state or a journal that is not a regular file instead of reading it forever', () => {
    const path = tempPath('state.json');
    symlinkSync('/dev/zero', `${path}.log`);
    expect(() => SyncState.load(path)).toThrow(`the sync log ${path}.log is not a regular file; nothing was sent`);
    execFileSync('mkfifo', [path]);
    expect(() => SyncState.load(path)).toThrow(`the sync state ${path} is not a regular file; nothing was sent`);
    expect(() => readJournal(path, 'j.journal')).toThrow('cannot read the journal j.journal: it is a FIFO (named pipe), not a regular file; nothing was sent');
  });

  it('refuses a whole line that is not a log line, naming the line', () => {
    const path = tempPath('state.json');
    writeFileSync(`${path}.log`, `${put('A', 'a')}{"op":"put","service":"sandbox","reference":"B","record":{"file":"b.yaml"}}\n`);
    expect(() => SyncState.load(path)).toThrow(`${path}.log:2: not a sync log line: record.hash: expected a string, not nothing`);
  });
});

describe('the events journal', () => {
  it('counts lines written under any spelling of the service, and only those', () => {
    const path = tempPath('e.csv.journal');
    const line = (key: string, service: string) =>
      `${JSON.stringify({ v: 1, key, application_id: 'a', kind: 'recruiter_like', status: 'accepted', service, at: '2026-01-01T00:00:00.000Z' })}\n`;
    writeFileSync(path, line('k1', 'http://127.0.0.1:4011') + line('k2', 'HTTP://127.0.0.1:4011/./') + line('k3', 'http://127.0.0.1:4012'));
    expect([...readJournal(path, 'j', 'http://127.0.0.1:4011/').statuses.keys()]).toEqual(['k1', 'k2']);
  });
});

describe('the state file (version 2)', () => {
  const A = 'https://jobs.example.com';
  const full = (hash: string, fields: Record<string, string>, file = 'a.yaml'): AdvertRecord => ({
    file,
    document: 0,
    hash,
    fields,
    published_at: '2026-01-01T00:00:00.000Z',
  });

  it('writes one record per line, sorted by reference, and reads back what was written', () => {
    const path = tempPath('state.json');
    const state = SyncState.load(path);
    state.put(A, 'B-2', full('b'.repeat(32), { title: '11111111', salary_text: '22222222' }, 'b.yaml'));
    state.put(A, 'A-1', full('a'.repeat(32), { title: '33333333', skills: '44444444' }));
    state.save();
    const records = [
      '{',
      '  "version": 2,',
      '  "services": {',
      '    "https://jobs.example.com": {',
      // In the order the names were first met: a name is only ever added at the end.
      '      "fields": ["title","salary_text","skills"],',
      '      "adverts": {',
      `        "A-1": {"file":"a.yaml","document":0,"hash":"${'a'.repeat(32)}","fields":"33333333 - 44444444","published_at":"2026-01-01T00:00:00.000Z"},`,
      `        "B-2": {"file":"b.yaml","document":0,"hash":"${'b'.repeat(32)}","fields":"11111111 22222222","published_at":"2026-01-01T00:00:00.000Z"}`,
      '      }',
      '    }',
      '  },',
      '',
    ].join('\n');
    // The last line holds a hash of every byte before it; a service whose records have no text hashes is not summed up.
    const bytes = createHash('sha256').update(records).digest('hex');
    expect(readFileSync(path, 'utf8')).toBe(`${records}  "check": {"bytes":"${bytes}","services":{}}\n}\n`);
    const again = SyncState.load(path).adverts(A);
    expect({ ...again.get('A-1')!.fields }).toEqual({ title: '33333333', skills: '44444444' });
    expect({ ...again.get('B-2')!.fields }).toEqual({ title: '11111111', salary_text: '22222222' });
    expect(again.get('B-2')).toMatchObject({ file: 'b.yaml', document: 0, hash: 'b'.repeat(32), published_at: '2026-01-01T00:00:00.000Z' });
  });

  it("a change to one advert changes one line of the file; a new field name changes its service's list too", () => {
    const path = tempPath('state.json');
    const state = SyncState.load(path);
    for (let i = 0; i < 50; i++) state.put(A, `R-${String(i).padStart(2, '0')}`, full(String(i).padStart(32, '0'), { title: '11111111', skills: '22222222' }));
    state.save();
    const before = readFileSync(path, 'utf8').split('\n');
    const next = SyncState.load(path);
    next.put(A, 'R-17', full('f'.repeat(32), { title: '99999999', skills: '22222222' }));
    next.save();
    const after = readFileSync(path, 'utf8').split('\n');
    expect(after).toHaveLength(before.length);
    const differing = after.flatMap((line, i) => (line === before[i] ? [] : [line]));
    expect(differing).toHaveLength(2);
    expect(differing[0]).toBe(
      `        "R-17": {"file":"a.yaml","document":0,"hash":"${'f'.repeat(32)}","fields":"99999999 22222222","published_at":"2026-01-01T00:00:00.000Z"},`,
    );
    expect(differing[1]).toMatch(/^ {2}"check": \{"bytes":"[0-9a-f]{64}","services":\{\}\}$/);
    const third = SyncState.load(path);
    third.put(A, 'R-03', full('e'.repeat(32), { title: '11111111', skills: '22222222', question: '33333333' }));
    third.save();
    const last = readFileSync(path, 'utf8').split('\n');
    expect(last.flatMap((line, i) => (line === after[i] ? [] : [line.trim().slice(0, 40)]))).toEqual([
      '"fields": ["title","skills","question"],',
      '"R-03": {"file":"a.yaml","document":0,"h',
      '"check": {"bytes":"' + last.at(-3)!.slice(21, 42),
    ]);
  });

  it("reads a version 1 file (an earlier release's) as equal records, leaves it as it is while nothing changes, and writes version 2 when something does", () => {
    const path = tempPath('state.json');
    const v1 = {
      version: 1,
      services: {
        [A]: {
          adverts: {
            'A-1': {
              file: 'a.yaml',
              document: 0,
              hash: 'a'.repeat(64),
              fields: { skills: '444444444444', title: '333333333333' },
              published_at: '2026-01-01T00:00:00.000Z',
            },
            'B-2': { file: 'b.yaml', document: 1, hash: 'b'.repeat(64), fields: { title: '111111111111' }, published_at: '2026-01-01T00:00:00.000Z' },
          },
        },
      },
    };
    const text = `${JSON.stringify(v1, null, 2)}\n`;
    writeFileSync(path, text);
    const state = SyncState.load(path);
    // Shortened as version 2 keeps them: a version 1 hash starts with the version 2 hash of the same content.
    expect(state.adverts(A).get('A-1')).toMatchObject({ file: 'a.yaml', document: 0, hash: 'a'.repeat(32) });
    expect({ ...state.adverts(A).get('A-1')!.fields }).toEqual({ skills: '44444444', title: '33333333' });
    state.save();
    expect(readFileSync(path, 'utf8')).toBe(text);
    state.remove(A, 'B-2');
    state.save();
    const { check, ...written } = JSON.parse(readFileSync(path, 'utf8'));
    expect(check).toEqual({ bytes: expect.stringMatching(/^[0-9a-f]{64}$/), services: {} });
    expect(written).toEqual({
      version: 2,
      services: {
        [A]: {
          fields: ['skills', 'title'],
          adverts: { 'A-1': { file: 'a.yaml', document: 0, hash: 'a'.repeat(32), fields: '44444444 33333333', published_at: '2026-01-01T00:00:00.000Z' } },
        },
      },
    });
  });

  it('refuses a version 2 file whose field names or field hashes are not what they should be', () => {
    const path = tempPath('state.json');
    const record = { file: 'a.yaml', document: 0, hash: 'a', fields: '11111111 22222222', published_at: 'now' };
    const cases: [unknown, string][] = [
      [{ [A]: { adverts: {} } }, `services["${A}"].fields: expected a list of field names, each once, not nothing`],
      [{ [A]: { fields: ['title', 'title'], adverts: {} } }, `services["${A}"].fields: expected a list of field names, each once, not a list`],
      [
        { [A]: { fields: ['title'], adverts: { R: record } } },
        `services["${A}"].adverts["R"].fields: expected at most 1 field hashes (the service's "fields") separated by single spaces, - for none`,
      ],
      [
        { [A]: { fields: ['title', 'skills'], adverts: { R: { ...record, fields: { title: '1' } } } } },
        `services["${A}"].adverts["R"].fields: expected a string, not an object`,
      ],
      [
        { [A]: { fields: ['title', 'skills'], adverts: { R: { ...record, fields: '11111111  22222222' } } } },
        `services["${A}"].adverts["R"].fields: expected at most 2 field hashes (the service's "fields") separated by single spaces, - for none`,
      ],
      [
        { [A]: { fields: ['title', 'skills'], adverts: { R: { ...record, fields: '11111111\t22222222' } } } },
        `services["${A}"].adverts["R"].fields: expected at most 2 field hashes (the service's "fields") separated by single spaces, - for none`,
      ],
      [
        { [A]: { fields: ['title', 'skills'], adverts: { R: { ...record, fields: '11111111 ' } } } },
        `services["${A}"].adverts["R"].fields: expected at most 2 field hashes (the service's "fields") separated by single spaces, - for none`,
      ],
      [
        { [A]: { fields: ['title', 'skills'], adverts: { R: { ...record, text_hash: 7 } } } },
        `services["${A}"].adverts["R"].text_hash: expected a string, not a number`,
      ],
    ];
    for (const [services, message] of cases) {
      writeFileSync(path, JSON.stringify({ version: 2, services }));
      expect(() => SyncState.load(path)).toThrow(`${path}: not a valid sync state: ${message}`);
    }
  });

  it('keeps a text hash with its record, and records a new one for an unchanged advert only when the state is written anyway', () => {
    const path = tempPath('state.json');
    const state = SyncState.load(path);
    expect(state.hasTextHashes(A)).toBe(false);
    state.put(A, 'A-1', { ...record('a'.repeat(32)), text_hash: 't'.repeat(32) });
    state.put(A, 'A-2', record('b'.repeat(32)));
    state.save();
    const line = readFileSync(path, 'utf8')
      .split('\n')
      .find((l) => l.includes('"A-1"'));
    expect(line).toBe(
      `        "A-1": {"file":"a.yaml","document":0,"hash":"${'a'.repeat(32)}","text_hash":"${'t'.repeat(32)}","fields":"x","published_at":"2026-01-01T00:00:00.000Z"},`,
    );
    const bytes = readFileSync(path, 'utf8');

    const read = SyncState.load(path);
    expect(read.adverts(A).get('A-1')?.text_hash).toBe('t'.repeat(32));
    expect(read.adverts(A).get('A-2')?.text_hash).toBeUndefined();
    // Half of the records have one: not "most".
    expect(read.hasTextHashes(A)).toBe(false);
    read.refreshTextHash(A, 'A-2', 'u'.repeat(32));
    read.save();
    expect(readFileSync(path, 'utf8')).toBe(bytes);

    read.put(A, 'A-3', { ...record('c'.repeat(32)), text_hash: 'v'.repeat(32) });
    read.refreshTextHash(A, 'A-2', 'u'.repeat(32));
    read.save();
    const again = SyncState.load(path);
    expect(again.adverts(A).get('A-2')?.text_hash).toBe('u'.repeat(32));
    expect(again.adverts(A).get('A-2')?.hash).toBe('b'.repeat(32));
    expect(again.hasTextHashes(A)).toBe(true);
  });

  it('sums up a service whose records all have text hashes in its last line, which holds only while no byte before it changes', () => {
    const path = tempPath('state.json');
    const state = SyncState.load(path);
    const records: [string, AdvertRecord][] = [
      ['A-1', { ...full('a'.repeat(32), { title: '1' }), text_hash: '1'.repeat(32) }],
      ['B-2', { ...full('b'.repeat(32), { title: '2' }, 'sub/b.yaml'), document: 1, text_hash: '2'.repeat(32) }],
    ];
    for (const [reference, r] of records) state.put(A, reference, r);
    state.put('https://other.example.com', 'C-3', full('c'.repeat(32), { title: '3' }));
    state.save();
    const sum = new AdvertSetHash();
    // In any order: the folder is summed in file order, the state in reference order.
    for (const [reference, r] of records.reverse()) sum.add(reference, r.file, r.document, r.text_hash!);
    const check = readStateCheck(path)!;
    expect([...check.sums]).toEqual([[A, sum.toString()]]);
    expect(check.holds()).toBe(true);

    const text = readFileSync(path, 'utf8');
    for (const edited of [
      text.replace('"A-1"', '"A-0"'),
      text.replace(/"B-2": .*\n/, ''),
      text.replace('sub/b.yaml', 'sub/c.yaml'),
      text.replace('"version": 2', '"version": 3'),
      text.replace(/\n}\n$/, '\n}'),
    ]) {
      writeFileSync(path, edited);
      expect(readStateCheck(path)?.holds() ?? false).toBe(false);
    }
    expect(readStateCheck(tempPath('none.json'))).toBeUndefined();
  });
});
