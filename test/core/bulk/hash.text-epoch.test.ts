/**
 * A sync finds an advert unchanged when its file's text hash matches the state's (see
 * src/core/bulk/hash.ts). That holds only while the same text makes the same payload: a change to
 * how a text is read, or how a payload is built from it, must bump TEXT_HASH_EPOCH, or recorded
 * text hashes would hide adverts whose payload the change altered. This test is the reminder: it
 * pins the files that decide a payload to the epoch.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEXT_HASH_EPOCH } from '../../../src/core/bulk/hash.js';

const ROOT = join(import.meta.dirname, '../../..');

/** What turns a file's bytes into the payload a sync sends. */
const PAYLOAD_SOURCES = [
  'src/core/adverts/files.ts',
  'src/core/adverts/fast-yaml.ts',
  'src/core/adverts/yaml-package-reader.ts',
  'src/core/adverts/read-yaml.ts',
  'src/core/adverts/markdown.ts',
  'src/core/adverts/scalars.ts',
  'src/core/adverts/reference.ts',
  'src/core/adverts/locations.ts',
  'src/core/config/advert-settings.ts',
  'src/core/validation/check.ts',
  'src/core/rules/pay.ts',
  'src/core/rules/pay-facts.ts',
  'src/core/rules/disclosures.ts',
  'src/core/adverts/language.ts',
  'schemas/advert.schema.json',
  'node_modules/yaml/package.json',
];

// Epoch 2: references are NFC. Re-pinned after schemas gained $id/examples and the YAML reader explained
// its syntax errors, and again when the readers' choice moved to read-yaml.ts and the read-ahead thread went (the same text gives the same payload).
// Again when the tool's own `jobs:` block was taken off the payload: a valid text with one was valid
// only with --allow-unknown-fields, whose texts textHashBasis hashes anew (no new epoch).
// Not bumped for `locations:` (one advert per place): no text that was valid before reads otherwise (the
// field was unknown; with --allow-unknown-fields beside `location` it is now an error, never another payload).
// Re-pinned for Markdown adverts (markdown.ts, and files.ts walking .md): a YAML text gives the payload it gave,
// and no state holds a .md file's text hash from before (a folder walk did not read .md files), so the epoch stays.
// Re-pinned when prettier first formatted the tree (layout only).
// Epoch 3 (issue 31): a Markdown body's first or last lines of only U+00A0 or U+3000 are kept (they were
// dropped), and a complex key is named as JSON (with --allow-unknown-fields it was sent as "[object Object]").
// Re-pinned for jobs.pay and jobs.remote in the jobs: block and the kept adverts of export (check-file.ts): the block
// is never in a payload, and a text valid before gives the payload it gave, so the epoch stays.
// Re-pinned when the YAML reader handed its text to the syntax errors' wording ("quote the value"): only invalid texts read otherwise.
// Not bumped for the rules by place (salary_text written from jobs.pay, jobs.disclosures added to the job
// description: rules/pay-facts.ts, disclosures.ts): a text that was valid before had neither (jobs.pay and
// jobs.disclosures were unknown keys of the jobs: block, an error even with --allow-unknown-fields, and
// salary_text was required), so it gives the payload it gave.
// Re-pinned for issue 31's hostile sizes (yaml-package-reader.ts: repeated keys found in one pass, a bound on
// characters repeated by aliases): a valid text reads as it did; only texts past the bounds are now refused.
// Re-pinned when the salary_text reader learnt more forms (periods, ISO codes, "and up", "between", "/yr –", extras after a range, German pay words): reading
// decides validity only; writeSalaryText is unchanged, so a valid text gives the payload it gave.
// Re-pinned when languageOf moved to adverts/language.ts (listed above; the same language from the same
// advert) and the wording checks came (check.ts: settings may carry them; warnings only, no payload changes).
// Re-pinned when reference.ts made its expression of invisible characters at its first use, after a
// look for a printable ASCII character (start-up, issue 31): the same reference is blank or not as before;
// and when the fast reader took one-line flow mappings and pay.ts kept one number format per language
// (validate's speed, issue 31): the same payloads, as the fast reader's property tests hold.
// Re-pinned when the alias bound moved to util/yaml-aliases.ts to be shared with every YAML input (the same
// bound and message; yaml-package-reader.ts spends it as before): a text reads as it did.
const PINNED = { epoch: 3, sources: 'c456909cbb9ab0ac' };

describe('the text hash epoch', () => {
  it('is reconsidered whenever what makes a payload from a text changes', () => {
    const digest = createHash('sha256');
    for (const file of PAYLOAD_SOURCES)
      digest
        .update(`${file}\n`)
        .update(file.endsWith('yaml/package.json') ? JSON.parse(readFileSync(join(ROOT, file), 'utf8')).version : readFileSync(join(ROOT, file)));
    const now = { epoch: TEXT_HASH_EPOCH, sources: digest.digest('hex').slice(0, 16) };
    expect(
      now,
      'a file that makes payloads from texts changed: if the same valid text can now give another payload, bump TEXT_HASH_EPOCH in src/core/bulk/hash.ts; then pin both here',
    ).toEqual(PINNED);
  });
});

describe('the text hash basis', () => {
  it('changed for runs that allow unknown fields only (a jobs: block was sent by them, and no longer is)', async () => {
    const { textHashBasis } = await import('../../../src/core/bulk/hash.js');
    expect(textHashBasis({ defaults: {} }, { allowUnknownFields: false })).toBe(
      'jobs text hash 3\n{"options":{"allowUnknownFields":false},"settings":{"defaults":{}}}\n',
    );
    expect(textHashBasis({ defaults: {} }, { allowUnknownFields: true })).toBe(
      'jobs text hash 3\n{"options":{"allowUnknownFields":true},"own_block":"jobs","settings":{"defaults":{}}}\n',
    );
  });
});
