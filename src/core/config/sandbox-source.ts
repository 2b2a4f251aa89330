/**
 * `--sandbox` as a source of settings: the embedded sandbox (src/core/sandbox/embedded.ts) is the
 * service, on a loopback port chosen when it starts, and its own public token is the token.
 *
 * Only the flag turns it on, no config key and no variable: a project config arrives with any
 * checkout, and one that could turn the sandbox off would send a run meant for the sandbox, with
 * your real token, to the service it names. While it is on, no other base URL or token is read
 * (not the environment's, a profile's, the credentials store's or the keyring's), so none can be
 * sent to it, and a project config cannot point the sandbox's requests elsewhere.
 */
import type { ConfigFlags } from './inputs.js';
import type { ResolvedConfig, Setting } from './types.js';

/** The embedded sandbox's token: public (the word `sandbox`); the sandbox accepts it alone. */
export const SANDBOX_TOKEN = 'sandbox';

/** The base URL and token --sandbox gives, or undefined without the flag. */
export function sandboxSettings(globals: Pick<ConfigFlags, 'sandbox'>): { baseUrl: Setting<undefined>; token: Setting<string> } | undefined {
  if (!globals.sandbox) return undefined;
  // The URL exists once the sandbox listens (a free port), so the setting names the source alone.
  return { baseUrl: { value: undefined, source: { kind: 'sandbox' } }, token: { value: SANDBOX_TOKEN, source: { kind: 'sandbox' } } };
}

/** Whether resolved settings say to run against the embedded sandbox. */
export function usesSandbox(config: Pick<ResolvedConfig, 'baseUrl'>): boolean {
  return config.baseUrl.source.kind === 'sandbox';
}
