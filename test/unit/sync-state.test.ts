/** The sync state's keys: services under any spelling of their URL, references that are property names. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyncState, type AdvertRecord } from '../../src/sync/state.js';
import { canonicalServiceKey } from '../../src/sync/service-key.js';
import { readJournal } from '../../src/events/journal.js';

const record = (hash: string, published_at = '2026-01-01T00:00:00.000Z'): AdvertRecord => ({ file: 'a.yaml', document: 0, hash, fields: { title: 'x' }, published_at });
const tempPath = (name: string) => join(mkdtempSync(join(tmpdir(), 'jobs-state-unit-')), name);

describe('canonicalServiceKey', () => {
  it('gives one key for every spelling of a service', () => {
    for (const spelling of ['https://jobs.example.com/api', 'HTTPS://Jobs.Example.COM/api', 'https://jobs.example.com:443/api/', 'https://jobs.example.com/api/./', 'https://jobs.example.com/v1/../api//', ' https://jobs.example.com/api ']) {
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
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).services['https://jobs.example.com'].adverts)).toEqual(['__proto__', 'constructor', 'hasOwnProperty']);
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
    const line = (key: string, service: string) => `${JSON.stringify({ v: 1, key, application_id: 'a', kind: 'recruiter_like', status: 'accepted', service, at: '2026-01-01T00:00:00.000Z' })}\n`;
    writeFileSync(path, line('k1', 'http://127.0.0.1:4011') + line('k2', 'HTTP://127.0.0.1:4011/./') + line('k3', 'http://127.0.0.1:4012'));
    expect([...readJournal(path, 'j', 'http://127.0.0.1:4011/').statuses.keys()]).toEqual(['k1', 'k2']);
  });
});
