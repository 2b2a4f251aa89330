/**
 * The real components that `npm run test:real` runs its tests against (the test files named
 * `*.real.test.ts`), listed once: the `real` vitest project's globalSetup checks every one before a
 * test starts and, when any is missing, names them all with the apt-get line that installs them and
 * fails (it never skips); .ci/run installs what `node scripts/real-components.mjs --missing-packages`
 * prints; test/architecture/real-components.test.ts keeps every test that spawns one of them in the
 * real set (`--commands` prints their names). `npm test` needs none of them: only Node and npm (and
 * git and a POSIX sh with coreutils, which come with them).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Debian packages, the commands of each that the tests run, and what for. */
export const COMPONENTS = [
  { pkg: 'bash', commands: ['bash'], for: 'the GitHub Action steps, the pack install, completion and shell-init' },
  { pkg: 'zsh', commands: ['zsh'], for: 'completion and shell-init in zsh' },
  { pkg: 'fish', commands: ['fish'], for: 'completion and shell-init in fish' },
  { pkg: 'chromium', commands: ['chromium'], for: 'the HTML report in a browser' },
  { pkg: 'squid', commands: ['squid'], for: 'requests through an HTTP proxy' },
  { pkg: 'tinyproxy', commands: ['tinyproxy'], for: 'a proxy that asks for credentials' },
  { pkg: 'openssl', commands: ['openssl'], for: 'the HTTPS tests (a throwaway CA)' },
  { pkg: 'curl', commands: ['curl'], for: 'the sandbox server driven by curl' },
  { pkg: 'dbus', commands: ['dbus-daemon', 'dbus-send'], for: 'a private session bus for the keyring' },
  { pkg: 'gnome-keyring', commands: ['gnome-keyring-daemon'], for: 'a real Secret Service (the OS keyring)' },
  { pkg: 'libsecret-tools', commands: ['secret-tool'], for: 'reading the keyring from outside' },
  { pkg: 'man-db', commands: ['man'], for: 'the man pages' },
  { pkg: 'pre-commit', commands: ['pre-commit'], for: 'the pre-commit hook' },
  { pkg: 'libxml2-utils', commands: ['xmllint'], for: 'the JUnit report against its schema' },
  { pkg: 'python3-junitparser', commands: [], python: 'junitparser', for: 'the JUnit report read by a JUnit reader' },
  { pkg: 'bsdutils', commands: ['script'], for: 'a terminal of 0 columns' },
  { pkg: 'mount', commands: ['mount', 'umount'], root: true, for: 'full and read-only disks (a real tmpfs, mounted as root)' },
];

// squid and mount live in sbin folders, which a user's PATH may not hold (the tests look there too).
const SEARCH = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/sbin', '/sbin'];

function onPath(command) {
  if (command === 'chromium' && process.env.CHROMIUM) return true;
  return SEARCH.some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Debian's python3 (not a pyenv one on PATH): the package installs the module for it. */
const hasPythonModule = (name) => spawnSync('/usr/bin/python3', ['-c', `import ${name}`], { stdio: 'ignore', timeout: 20_000 }).status === 0;

/** The components that are missing, each with what is missing of it. */
export function missing() {
  const out = [];
  for (const c of COMPONENTS) {
    const absent = c.commands.filter((command) => !onPath(command));
    if (c.python && !hasPythonModule(c.python)) absent.push(`python3 -c 'import ${c.python}'`);
    if (absent.length > 0) out.push({ ...c, absent });
  }
  return out;
}

const isRoot = () => process.getuid?.() === 0;

/** The message naming everything missing, or undefined when the machine has it all. */
export function missingMessage() {
  const gone = missing();
  const root = COMPONENTS.some((c) => c.root) && !isRoot();
  if (gone.length === 0 && !root) return undefined;
  const lines = [];
  if (gone.length > 0) {
    lines.push(`npm run test:real needs real components that this machine lacks: ${gone.map((c) => c.absent.join(', ')).join(', ')}`);
    for (const c of gone) lines.push(`  ${c.pkg.padEnd(20)} ${c.absent.join(', ')}: ${c.for}`);
    lines.push(`Install them (Debian, Ubuntu): sudo apt-get install -y --no-install-recommends ${gone.map((c) => c.pkg).join(' ')}`);
  }
  if (root) lines.push('Run it as root (in a container, as CI does): the full and read-only disk tests mount a tmpfs.');
  lines.push('npm test runs every test that needs only Node and npm.');
  return lines.join('\n');
}

/** vitest's globalSetup of the `real` project: fails the run before any test when something is missing. */
export default function setup() {
  const message = missingMessage();
  if (message) throw new Error(`\n${message}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = process.argv[2];
  if (arg === '--missing-packages')
    process.stdout.write(
      `${missing()
        .map((c) => c.pkg)
        .join(' ')}\n`,
    );
  else if (arg === '--commands') process.stdout.write(`${JSON.stringify(COMPONENTS.flatMap((c) => c.commands))}\n`);
  else {
    const message = missingMessage();
    process.stdout.write(message ? '' : 'every real component is here\n');
    if (message) process.stderr.write(`${message}\n`);
    process.exitCode = message ? 1 : 0;
  }
}
