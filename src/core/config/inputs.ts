/**
 * What configuration reads from the command line and the process, handed in by the caller: the
 * core never looks at argv or a terminal. The CLI's Context (cwd, env, globals) satisfies it; a
 * script passes plain values.
 */
export type Env = Record<string, string | undefined>;

/** The global flags settings are resolved from; undefined where not given, so precedence can fill them. */
export interface ConfigFlags {
  profile?: string;
  baseUrl?: string;
  tokenFile?: string;
  config?: string;
  timeout?: string;
  retries?: number;
  /** --allow-env: environment variables a project config may read (by name). */
  allowEnv?: string[];
  /** --sandbox: the embedded sandbox is the service, with its own token (sandbox-source.ts). */
  sandbox?: boolean;
}

/** Where settings are resolved from: the working directory, the environment and the flags. */
export interface ConfigInput {
  cwd: string;
  env: Env;
  globals: ConfigFlags;
}
