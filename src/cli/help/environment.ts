/**
 * The environment variables jobs reads: `jobs help environment`, the man page's ENVIRONMENT and
 * docs/configuration.md come from this list (a test finds every variable the code reads in it).
 */
export const ENVIRONMENT: ReadonlyArray<readonly [name: string, meaning: string]> = [
  ['JOBS_BASE_URL', 'the service base URL (as --base-url; wins over the config files)'],
  ['JOBS_TOKEN', "the token (wins over --token-file, a profile's token and the store of `jobs login`)"],
  ['JOBS_PROFILE', 'the profile to use (as --profile)'],
  ['JOBS_CONFIG', 'one config file to use instead of searching (as --config)'],
  ['JOBS_DEBUG', '1: as --verbose (HTTP trace on stderr, token redacted; stack traces on errors)'],
  ['JOBS_CLI_NAME', 'the name the tool calls itself in help and hints (set by the `jobs` function of shell-init)'],
  ['JOBS_WORKERS', 'how many worker threads check a large validate, publish or sync (0: none)'],
  [
    'JOBS_TODAY',
    'YYYY-MM-DD: the day advert dates (jobs: opens/closes) are read against, for tests and rehearsals (ignored with --sandbox, with a warning: the sandbox uses its own clock)',
  ],
  ['JOBS_CA_FILE', "a PEM file of CA certificates to trust for the service, beside the system ones (as a profile's ca_file)"],
  ['HTTPS_PROXY', 'the proxy for https:// services (https_proxy too, which wins); credentials in its URL are never shown'],
  ['HTTP_PROXY', 'the proxy for http:// services (http_proxy too, which wins)'],
  ['NO_PROXY', 'hosts reached directly: names, .suffixes, *, host:port, addresses and CIDR ranges (no_proxy too); loopback always is'],
  ['NODE_EXTRA_CA_CERTS', 'read by Node itself: a PEM file of CA certificates added to the system ones'],
  ['NO_COLOR', 'set and not empty: no colour, as --no-color'],
  ['FORCE_COLOR', 'colour even when the output is not a terminal (0 or false: none)'],
  ['TERM', 'dumb: no colour and no live progress line'],
  ['CI', 'set: never prompt (as --no-input), no live progress line, and preview --open opens no browser'],
  ['DISPLAY', 'on Linux, with WAYLAND_DISPLAY: whether there is a desktop for preview --open (neither set: no browser is opened)'],
  ['WAYLAND_DISPLAY', 'see DISPLAY'],
  ['XDG_CONFIG_HOME', 'where the user config and the token store live (default ~/.config): jobs/config.yaml, jobs/credentials.json'],
  ['XDG_STATE_HOME', 'where the statistics history and the --sandbox data live (default ~/.local/state): jobs/history/, jobs/sandbox.json'],
  ['XDG_CACHE_HOME', 'where a V8 code cache is made when the shipped one does not fit this Node (default ~/.cache)'],
  ['APPDATA', 'on Windows, where the user config and the token store live: %APPDATA%\\jobs'],
  ['DBUS_SESSION_BUS_ADDRESS', 'on Linux, the session bus the OS keyring (Secret Service) answers on; unset: jobs login uses the 0600 file'],
  ['XDG_RUNTIME_DIR', 'on Linux, where the session bus is looked for when DBUS_SESSION_BUS_ADDRESS is unset'],
  ['HOME', 'the default for the XDG folders (USERPROFILE on Windows)'],
  ['USERPROFILE', 'HOME on Windows'],
];
