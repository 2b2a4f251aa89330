/**
 * Real proxy servers for the proxy tests, started on 127.0.0.1 on a free port with a generated
 * configuration: Debian's squid (its `hosts_file` maps made-up names to 127.0.0.1, so a request to
 * such a name succeeds only through the proxy) and tinyproxy (whose BasicAuth checks the
 * Proxy-Authorization header). Each keeps an access log the tests read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';

/** A name only the proxies can resolve (to 127.0.0.1). */
export const PROXIED_HOST = 'jobs.proxied.test';
/** A name squid resolves too, but refuses to connect to (403). */
export const REFUSED_HOST = 'jobs.refused.test';

export interface RunningProxy {
  port: number;
  url: string;
  /** The access log's lines so far. */
  log(): string[];
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something accepts connections on the port; bounded in time. */
async function waitForPort(port: number, child: ChildProcess, failed: () => Error | undefined, output: () => string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const error = failed();
    if (error) throw error;
    if (child.exitCode !== null) throw new Error(`the proxy exited (${child.exitCode}) before listening:\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`the proxy did not listen on ${port} within ${ms} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function start(command: string, args: string[], port: number, dir: string, logFile: string, pkg: string): Promise<RunningProxy> {
  let output = '';
  // A command that cannot start (ENOENT: not installed) is an 'error' event, not an exit.
  let spawnError: Error | undefined;
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.on('error', (error) => {
    spawnError = new Error(`cannot run ${command} (install it: sudo apt-get install -y ${pkg}; npm run test:real checks for it first): ${error.message}`);
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  try {
    await waitForPort(
      port,
      child,
      () => spawnError,
      () => output,
    );
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    log: () =>
      existsSync(logFile)
        ? readFileSync(logFile, 'utf8')
            .split('\n')
            // The readiness probe (waitForPort) connects and closes without a request: squid logs it as
            // a transaction that ended before its headers, sometimes only after the first test began.
            .filter((line) => line.trim() !== '' && !line.includes('error:transaction-end-before-headers'))
        : [],
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** squid with no cache, every client of 127.0.0.1 allowed, and PROXIED_HOST in its hosts file. */
export async function startSquid(): Promise<RunningProxy> {
  const dir = tempDir('jobs-squid-');
  // squid started as root drops to its own user (proxy), which must write the logs here.
  chmodSync(dir, 0o777);
  const port = await freePort();
  writeFileSync(join(dir, 'hosts'), `127.0.0.1 ${PROXIED_HOST}\n127.0.0.1 ${REFUSED_HOST}\n`);
  const logFile = join(dir, 'access.log');
  writeFileSync(
    join(dir, 'squid.conf'),
    [
      `http_port 127.0.0.1:${port}`,
      `pid_filename ${join(dir, 'squid.pid')}`,
      `access_log stdio:${logFile}`,
      `cache_log ${join(dir, 'cache.log')}`,
      'cache_store_log none',
      'cache deny all',
      'cache_mem 8 MB',
      `coredump_dir ${dir}`,
      `hosts_file ${join(dir, 'hosts')}`,
      // No name server is asked: a name outside the hosts file fails at once.
      'dns_nameservers 127.0.0.1',
      'pinger_enable off',
      'shutdown_lifetime 0 seconds',
      `acl refused dstdomain ${REFUSED_HOST}`,
      'http_access deny refused',
      'acl from_loopback src 127.0.0.1/32',
      'http_access allow from_loopback',
      'http_access deny all',
      '',
    ].join('\n'),
  );
  // squid lives in /usr/sbin, which a user's PATH may not hold.
  const squid = existsSync('/usr/sbin/squid') ? '/usr/sbin/squid' : 'squid';
  return start(squid, ['-N', '-f', join(dir, 'squid.conf')], port, dir, logFile, 'squid');
}

/**
 * tinyproxy asking for Proxy-Authorization `Basic user:password`, forwarding to `upstream` (squid,
 * which alone resolves PROXIED_HOST) when given.
 */
export async function startTinyproxy(user: string, password: string, upstream?: RunningProxy): Promise<RunningProxy> {
  const dir = tempDir('jobs-tinyproxy-');
  chmodSync(dir, 0o777);
  const port = await freePort();
  const logFile = join(dir, 'tinyproxy.log');
  writeFileSync(
    join(dir, 'tinyproxy.conf'),
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 30',
      `LogFile "${logFile}"`,
      'LogLevel Connect',
      `PidFile "${join(dir, 'tinyproxy.pid')}"`,
      'MaxClients 20',
      'Allow 127.0.0.1',
      `BasicAuth ${user} ${password}`,
      'DisableViaHeader Yes',
      ...(upstream ? [`Upstream http 127.0.0.1:${upstream.port}`] : []),
      '',
    ].join('\n'),
  );
  return start('tinyproxy', ['-d', '-c', join(dir, 'tinyproxy.conf')], port, dir, logFile, 'tinyproxy');
}
