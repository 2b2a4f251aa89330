/**
 * The name the tool calls itself in help, hints and errors: the one it was invoked under, so that
 * `jobs-cli` users are told to run `jobs-cli ...` and `jobs` users `jobs ...`.
 */

/** When the name cannot be told (`node bin/jobs.js`, the programmatic API): the one that works in scripts. */
export const DEFAULT_NAME = 'jobs-cli';

/** Set by the `jobs` shell function of `shell-init`, which starts bin/jobs.js by its path. */
export const NAME_VARIABLE = 'JOBS_CLI_NAME';

const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The name for a program started as `invokedAs` (process.argv[1]): its file name, unless that is a script file. */
export function programName(invokedAs: string | undefined, env: Record<string, string | undefined>): string {
  const given = env[NAME_VARIABLE];
  if (given !== undefined && PLAIN_NAME.test(given)) return given;
  const base = invokedAs?.split(/[\\/]/).pop() ?? '';
  // npm's bin links keep the name they were installed under (`jobs`, `jobs-cli`); `node bin/jobs.js` does not.
  if (!PLAIN_NAME.test(base) || /\.[cm]?js$/.test(base)) return DEFAULT_NAME;
  return base;
}
