/**
 * Whether a text carries the service token. Used where the token must never go: into a request body
 * (src/core/api/client.ts) or, through another environment variable, into a config value
 * (src/core/config/interpolate.ts).
 */

/**
 * Real tokens are long random strings. A shorter one (the sandbox's `sandbox`) could be an ordinary
 * word of an advert, so only its exact copy counts; refusing every advert that uses the word would
 * leave no way to publish it.
 */
export const MIN_SEARCHED_TOKEN_LENGTH = 12;

/** True when `text` is the token, or holds a token long enough to tell from ordinary words. */
export function carriesToken(text: string, token: string): boolean {
  if (token === '') return false;
  return text.trim() === token || (token.length >= MIN_SEARCHED_TOKEN_LENGTH && text.includes(token));
}
