/**
 * Which service a run talks to, as which profile, with a token from where: the one account of it,
 * for `doctor` and for any command that says where a token came from and how to change it.
 */
import { describeSource } from './describe.js';
import { displayPath, tildePath } from './paths.js';
import { usesSandbox } from './sandbox-source.js';
import type { ResolvedConfig, Setting, SettingSource } from './types.js';

type Env = Record<string, string | undefined>;

export type ServiceTarget =
  /** The embedded sandbox (--sandbox): its URL exists once it listens. */
  { kind: 'sandbox'; source: SettingSource } | { kind: 'url'; url: string; source: SettingSource } | { kind: 'unset' };

export type TokenInUse =
  /** The sandbox's own, public token. */
  { kind: 'sandbox'; source: SettingSource } | { kind: 'found'; source: SettingSource } | { kind: 'unset' };

export interface ServiceInUse {
  service: ServiceTarget;
  profile: Setting<string | undefined>;
  token: TokenInUse;
}

export function serviceInUse(config: Pick<ResolvedConfig, 'baseUrl' | 'token' | 'profile'>): ServiceInUse {
  const sandbox = usesSandbox(config);
  const url = config.baseUrl.value;
  return {
    service: sandbox ? { kind: 'sandbox', source: config.baseUrl.source } : url ? { kind: 'url', url, source: config.baseUrl.source } : { kind: 'unset' },
    profile: config.profile,
    token: sandbox
      ? { kind: 'sandbox', source: config.token?.source ?? config.baseUrl.source }
      : config.token
        ? { kind: 'found', source: config.token.source }
        : { kind: 'unset' },
  };
}

/** What a hint needs to name things as the user sees them. */
export interface HintPlace {
  /** The program's name as invoked (`jobs`, `jobs-cli`), for the commands a hint names. */
  name: string;
  cwd: string;
  env: Env;
  /** --token-file's value, when given. */
  tokenFile?: string;
}

/**
 * How to set the base URL so that it is used: a profile's base_url counts only for the profile in
 * use; with none selected, that is the profile named "default".
 */
export function baseUrlHint(place: Pick<HintPlace, 'name'>, profile: string | undefined): string {
  const name = place.name;
  if (profile !== undefined) return `Pass --base-url, set JOBS_BASE_URL, or run: ${name} config set profiles.${profile}.base_url https://...`;
  return `Pass --base-url, set JOBS_BASE_URL, or run: ${name} config set profiles.default.base_url https://... (the profile "default" is used when none is selected)`;
}

/** Where a token the service refused came from, and how to replace it. */
export function rejectedTokenHint(place: HintPlace, source: SettingSource | undefined): string {
  const { name } = place;
  if (!source) return `Run '${name} login' to store a token.`;
  switch (source.kind) {
    case 'env':
      return `The token came from ${source.name}; check its value, or unset it to use the profile's or the stored token.`;
    case 'flag':
      return `The token came from --token-file ${place.tokenFile ?? ''}; check the file's content.`.replace(' ;', ';');
    case 'file':
      return `The token came from ${displayPath(source.path, place.cwd, place.env)}: ${source.key}; check that value (or the variable it names).`;
    case 'store':
      return `The token came from '${name} login' (${tildePath(source.path, place.env)}); run '${name} login' again to replace it.`;
    case 'keyring':
      return `The token came from '${name} login' (${describeSource(source, place.cwd, place.env)}); run '${name} login' again to replace it.`;
    default:
      return `Run '${name} login' to store a new token.`;
  }
}
