/** Words for where a setting came from, shared by `jobs config list`, `config get` and `doctor`. */
import { keyringLabel } from './keyring.js';
import { displayPath, tildePath } from './paths.js';
import type { SettingSource } from './types.js';

type Env = Record<string, string | undefined>;

export function describeSource(source: SettingSource, cwd: string, env: Env): string {
  switch (source.kind) {
    case 'flag':
      return source.name;
    case 'env':
      return source.name;
    case 'file':
      return source.key ? `${displayPath(source.path, cwd, env)}: ${source.key}` : displayPath(source.path, cwd, env);
    case 'store':
      return `credentials store ${tildePath(source.path, env)}`;
    case 'keyring':
      return keyringLabel(source.account);
    case 'default':
      return 'default';
    case 'sandbox':
      return '--sandbox';
  }
}

/** The only way a token is ever shown: that it is set, and where it came from. */
export function describeToken(source: SettingSource | undefined, cwd: string, env: Env): string {
  return source ? `(set, from ${describeSource(source, cwd, env)})` : '(not set)';
}
