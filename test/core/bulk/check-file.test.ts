// Checking one file of a bulk run (src/core/bulk/check-file.ts): typed references and digests.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realisticAdvertYaml } from '../../../bench/generate.mjs';
import { checkFile, loadHashing, type CheckSettings } from '../../../src/core/bulk/check-file.js';
import { textHashOf } from '../../../src/core/bulk/hash.js';
import { tempDir } from '../../support/temp-dirs.js';

const noStdin = async function* (): AsyncGenerator<string> {};

describe('checkFile', () => {
  it('leaves each reference with its place and validity, and a typed digest per valid advert', async () => {
    const dir = tempDir('jobs-check-file-');
    const path = join(dir, 'two.yaml');
    const text = `${realisticAdvertYaml(1)}---\nreference: BAD-1\nseniority: -1\n`;
    writeFileSync(path, text);
    await loadHashing();
    const settings: CheckSettings = {
      settings: { defaults: {}, constants: {} },
      mode: 'create',
      options: {},
      records: false,
      digests: true,
      texts: { basis: 'b', textOnly: true },
    };
    const c = await checkFile({ display: 'two.yaml', path }, noStdin, settings);
    expect(c.adverts).toBe(2);
    expect(c.invalid).toBe(1);
    const line = text.split('\n').indexOf('reference: BAD-1') + 1;
    expect(c.references).toEqual([
      { reference: 'REAL-0000001', line: 3, column: 12, valid: true },
      { reference: 'BAD-1', line, column: 12, valid: false },
    ]);
    // The content hash is left out (textOnly): the text hash stands for it.
    expect(c.digests).toEqual([{ reference: 'REAL-0000001', document: 0, hash: '', textHash: textHashOf('b', Buffer.from(text)) }]);
    expect(c.findings.length).toBeGreaterThan(0);
    expect(c.findings.every((f) => f.file === 'two.yaml')).toBe(true);
  });
});
