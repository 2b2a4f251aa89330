/** An advert read again for its content hash is read from the very bytes the check took its text hash from. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAdverts } from '../../../src/core/adverts/parse.js';
import { hashOf, textHashBasis, textHashOf } from '../../../src/core/bulk/hash.js';
import { contentHashReader } from '../../../src/core/bulk/reread.js';
import { checkAdvert, NO_SETTINGS } from '../../../src/core/validation/check.js';
import { tempDir } from '../../support/temp-dirs.js';

const ROOT = join(import.meta.dirname, '../../..');

describe('contentHashReader', () => {
  const basis = textHashBasis(NO_SETTINGS, {});
  const dir = tempDir('jobs-reread-');
  const file = join(dir, 'advert.yaml');
  const text = readFileSync(join(ROOT, 'examples/adverts/backend-engineer.yaml'), 'utf8');

  it('gives the content hash of the advert whose text hash the check took', async () => {
    writeFileSync(file, text);
    const read = contentHashReader(dir, NO_SETTINGS, {}, basis);
    const expected = hashOf(checkAdvert(parseAdverts('advert.yaml', text).adverts[0]!, NO_SETTINGS).payload);
    await expect(read({ source: 'advert.yaml', document: 0, reference: 'ACME-0042', textHash: textHashOf(basis, Buffer.from(text)) })).resolves.toBe(expected);
  });

  it('refuses a file saved again since it was checked, even with the same reference', async () => {
    writeFileSync(file, text);
    const checked = textHashOf(basis, Buffer.from(text));
    writeFileSync(file, text.replace('seniority: 3', 'seniority: 4'));
    const read = contentHashReader(dir, NO_SETTINGS, {}, basis);
    await expect(read({ source: 'advert.yaml', document: 0, reference: 'ACME-0042', textHash: checked })).rejects.toThrow(
      'advert.yaml changed since it was checked; nothing was sent for ACME-0042',
    );
  });
});
