import type { OutStream } from '../context.js';

/**
 * Colour is decided in one place: --no-color and NO_COLOR turn it off, FORCE_COLOR turns it on,
 * otherwise only a terminal gets it.
 */
export function useColor(stream: OutStream, env: Record<string, string | undefined>, colorFlag = true): boolean {
  if (!colorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return Boolean(stream.isTTY);
}
