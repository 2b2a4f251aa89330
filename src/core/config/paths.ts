/**
 * Where jobs keeps its per-user files. Everything is derived from the environment handed in (never
 * process.env directly) so tests and the sandbox can point HOME and XDG_CONFIG_HOME elsewhere.
 */
import { homedir } from 'node:os';
import { isAbsolute, posix, relative, sep, win32 } from 'node:path';

type Env = Record<string, string | undefined>;

/** The user's home directory: $HOME (or %USERPROFILE%), else the OS answer. */
export function homeDir(env: Env): string {
  return nonEmpty(env.HOME) ?? nonEmpty(env.USERPROFILE) ?? homedir();
}

/**
 * `$XDG_CONFIG_HOME/jobs`; else, on Windows, `%APPDATA%\jobs` (the roaming profile, where Windows
 * programs keep settings); else `~/.config/jobs`. The XDG spec says a relative XDG_CONFIG_HOME is
 * invalid and must be ignored. (env-paths, which cosmiconfig brings, reads process.env and names the
 * folder `jobs-nodejs\Config`; this reads the environment it is handed.) `platform` is for tests.
 */
export function userConfigDir(env: Env, platform: NodeJS.Platform = process.platform): string {
  const path = platform === 'win32' ? win32 : posix;
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'jobs');
  const appData = platform === 'win32' ? nonEmpty(env.APPDATA) : undefined;
  if (appData && path.isAbsolute(appData)) return path.join(appData, 'jobs');
  return path.join(homeDir(env), '.config', 'jobs');
}

/** The file `jobs config set` creates when there is no user config yet. */
export function defaultUserConfigFile(env: Env, platform: NodeJS.Platform = process.platform): string {
  return (platform === 'win32' ? win32 : posix).join(userConfigDir(env, platform), 'config.yaml');
}

/** The credentials store written by `jobs login`. */
export function credentialsFile(env: Env, platform: NodeJS.Platform = process.platform): string {
  return (platform === 'win32' ? win32 : posix).join(userConfigDir(env, platform), 'credentials.json');
}

/**
 * A path as a user recognises it in a message: relative when it is under cwd, `~/...` when under
 * home, otherwise absolute.
 */
export function displayPath(file: string, cwd: string, env: Env): string {
  const rel = relative(cwd, file);
  if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel;
  return tildePath(file, env);
}

/** `~/...` for a path under home, else the path unchanged. */
export function tildePath(file: string, env: Env): string {
  const fromHome = relative(homeDir(env), file);
  if (fromHome && !fromHome.startsWith('..') && !isAbsolute(fromHome)) return `~${sep}${fromHome}`;
  return file;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
