/**
 * The reference `jobs init` writes into a new advert. Every advert used to get `ACME-0001`, and
 * `publish` is an upsert: a second advert published with it replaced the first on the service. A
 * reference from the file's name and a random part cannot collide between two new adverts (30 bits:
 * one in a billion for two files of the same name), and still reads as the advert's.
 */
import { randomBytes } from 'node:crypto';
import { basename, extname } from 'node:path';

/** Crockford's base 32: no I, L, O or U, so it reads aloud and types back without mistakes. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The name part is cut to this many characters: a reference is typed in update, delete and stats. */
const MAX_NAME = 24;

/** `adverts/backend-engineer.yaml` -> `BACKEND-ENGINEER-7K3M9Q`; no file (or no letters in its name) -> `ADVERT-7K3M9Q`. */
export function newReference(file?: string, random: (size: number) => Uint8Array = randomBytes): string {
  const stem = file === undefined ? '' : basename(file, extname(file));
  const name =
    stem
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '-')
      .slice(0, MAX_NAME)
      .replace(/^-+|-+$/g, '') || 'ADVERT';
  const bytes = random(6);
  let suffix = '';
  for (const byte of bytes) suffix += ALPHABET[byte & 31];
  return `${name}-${suffix}`;
}
