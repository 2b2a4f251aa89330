// Requests through real proxies from Debian: squid (whose hosts file alone knows jobs.proxied.test,
// so a request to it succeeds only through the proxy) and tinyproxy (which checks
// Proxy-Authorization). What the proxies log and what the service receives are the evidence.
import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../src/core/errors/failures.js';
import { classifyFailure } from '../../../src/core/events/outcome.js';
import { PROXIED_HOST, REFUSED_HOST, freePort, startSquid, startTinyproxy, type RunningProxy } from '../../support/proxies.js';
import { makeCa, statsService, type StatsService, type TestCa } from '../../support/tls-certs.js';
import { makeClient, rejection, TOKEN } from '../../support/http-client.js';

let squid: RunningProxy;
let tinyproxy: RunningProxy;
let ca: TestCa;
let tls: StatsService;
let plain: Server;
let plainPort: number;
const plainSeen: string[] = [];
const USER = 'alice';
const PASSWORD = 'pr0xy-s3cret';

beforeAll(async () => {
  ca = makeCa([PROXIED_HOST, REFUSED_HOST, 'localhost']);
  [squid, tls] = await Promise.all([startSquid(), statsService(ca)]);
  plain = createServer((req, res) => {
    plainSeen.push(`${req.method} ${req.url} ${req.headers.host} ${req.headers['proxy-authorization'] ?? '-'}`);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"views":1,"likes":0,"applications":0,"applications_unviewed":0}'));
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainPort = (plain.address() as AddressInfo).port;
}, 30_000);

afterAll(async () => {
  plain?.closeAllConnections();
  await Promise.all([squid?.stop(), tls?.close(), plain && new Promise((resolve) => plain.close(resolve))]);
  ca?.remove();
});

const caFile = () => ({ path: ca.caFile, from: 'JOBS_CA_FILE' });
const newLines = (proxy: RunningProxy, before: number) => proxy.log().slice(before);

describe('through squid', () => {
  it('https: one CONNECT tunnel, kept for requests in a row, with TLS to the service inside it', async () => {
    const before = squid.log().length;
    const connectionsBefore = tls.connections();
    const { client, trace } = makeClient({ baseUrl: `https://${PROXIED_HOST}:${tls.port}`, proxyEnv: { HTTPS_PROXY: squid.url }, caFile: caFile() });
    for (let i = 0; i < 5; i++) await client.stats(`ACME-${i}`);
    expect(tls.requests.slice(-5)).toEqual([0, 1, 2, 3, 4].map((i) => `GET /jobs/ACME-${i}/stats ${PROXIED_HOST}:${tls.port}`));
    expect(tls.connections() - connectionsBefore).toBe(1);
    expect(trace).toContain(`> through the proxy ${squid.url} (from HTTPS_PROXY)`);
    // squid logs a tunnel when it closes: wait for the client's idle connection to go.
    await until(() => newLines(squid, before).length > 0);
    const lines = newLines(squid, before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`TCP_TUNNEL/200 \\d+ CONNECT ${PROXIED_HOST}:${tls.port} `));
  }, 20_000);

  it('http: requests in absolute form, which the proxy forwards', async () => {
    const before = squid.log().length;
    const { client } = makeClient({ baseUrl: `http://${PROXIED_HOST}:${plainPort}`, proxyEnv: { http_proxy: squid.url }, allowInsecureHttp: true });
    await client.stats('A-1');
    await client.postEvent('app-1', { kind: 'recruiter_view' });
    await until(() => newLines(squid, before).length >= 2);
    expect(newLines(squid, before).map((line) => line.split(/\s+/).slice(3, 7).join(' '))).toEqual([
      expect.stringMatching(new RegExp(`^TCP_MISS/200 \\d+ GET http://${PROXIED_HOST}:${plainPort}/jobs/A-1/stats$`)),
      expect.stringMatching(new RegExp(`^TCP_MISS/200 \\d+ POST http://${PROXIED_HOST}:${plainPort}/job_applications/app-1/events$`)),
    ]);
    expect(plainSeen.slice(-2)).toEqual([
      `GET /jobs/A-1/stats ${PROXIED_HOST}:${plainPort} -`,
      `POST /job_applications/app-1/events ${PROXIED_HOST}:${plainPort} -`,
    ]);
  });

  it('http: the connection to the proxy is kept for requests in a row', async () => {
    // A relay in front of squid counts the client's connections to "the proxy".
    let connections = 0;
    const relay = createTcpServer((client) => {
      connections++;
      const upstream = connect(squid.port, '127.0.0.1');
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
      const { client } = makeClient({ baseUrl: `http://${PROXIED_HOST}:${plainPort}`, proxyEnv: { HTTP_PROXY: proxyUrl }, allowInsecureHttp: true });
      const seen = plainSeen.length;
      for (let i = 0; i < 5; i++) await client.stats(`KEEP-${i}`);
      expect(plainSeen.length - seen).toBe(5);
      expect(connections).toBe(1);
    } finally {
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it('without the proxy the made-up name does not resolve: the requests above went through it', async () => {
    const { client } = makeClient({ baseUrl: `https://${PROXIED_HOST}:${tls.port}`, proxyEnv: {}, caFile: caFile(), retries: 0 });
    const error = await rejection<ApiError>(client.stats('A'));
    expect(error.message).toMatch(/^cannot reach https:\/\/jobs\.proxied\.test:\d+\/ \((host not found|DNS lookup failed)\)$/);
  });

  it('NO_PROXY naming the service sends it direct: the proxy sees nothing', async () => {
    const before = squid.log().length;
    const { client } = makeClient({
      baseUrl: `https://${PROXIED_HOST}:${tls.port}`,
      proxyEnv: { HTTPS_PROXY: squid.url, no_proxy: 'localhost,.proxied.test' },
      caFile: caFile(),
      retries: 0,
    });
    const error = await rejection<ApiError>(client.stats('A'));
    expect(error.message).toMatch(/\((host not found|DNS lookup failed)\)$/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(newLines(squid, before)).toEqual([]);
  });

  it('loopback is never proxied', async () => {
    const before = squid.log().length;
    const requests = tls.requests.length;
    const { client } = makeClient({ baseUrl: `https://127.0.0.1:${tls.port}`, proxyEnv: { HTTPS_PROXY: squid.url, HTTP_PROXY: squid.url }, caFile: caFile() });
    await client.stats('LOOP');
    expect(tls.requests.slice(requests)).toEqual([`GET /jobs/LOOP/stats 127.0.0.1:${tls.port}`]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(newLines(squid, before)).toEqual([]);
  });

  it("a refused destination (403) is said to be the proxy's, and not repeated", async () => {
    const { client, waits } = makeClient({ baseUrl: `https://${REFUSED_HOST}:${tls.port}`, proxyEnv: { HTTPS_PROXY: squid.url }, caFile: caFile() });
    const error = await rejection<ApiError>(client.stats('A'));
    expect(error.message).toBe(
      `cannot reach https://${REFUSED_HOST}:${tls.port}/ (the proxy ${squid.url} refused the connection to ${REFUSED_HOST}:${tls.port} (403 Forbidden)); the proxy does not let this machine reach the service: ask its administrators, or add the service's host to NO_PROXY if it can be reached directly`,
    );
    expect(error.exitCode).toBe(7);
    expect(waits).toEqual([]);
    // Nothing reached the service: the events journal holds such an event as failed, not uncertain.
    expect(classifyFailure(error)).toBe('failed');
  });

  it('a destination the proxy cannot reach (503) is retried: the service got nothing', async () => {
    // squid resolves the name, but nothing listens on the port.
    const port = await freePort();
    const { client, waits } = makeClient({ baseUrl: `https://${PROXIED_HOST}:${port}`, proxyEnv: { HTTPS_PROXY: squid.url }, caFile: caFile(), retries: 1 });
    const error = await rejection<ApiError>(client.postEvent('7', { kind: 'recruiter_view' }));
    expect(error.message).toMatch(
      new RegExp(
        `^cannot reach https://jobs\\.proxied\\.test:${port}/ \\(the proxy http://127\\.0\\.0\\.1:${squid.port} could not reach jobs\\.proxied\\.test:${port} \\(50[234] [A-Za-z ]+\\)\\) after 1 retry$`,
      ),
    );
    expect(waits).toHaveLength(1);
    expect(classifyFailure(error)).toBe('failed');
  });

  it('a proxy that is not there: connection refused, named as the proxy', async () => {
    const port = await freePort();
    const { client } = makeClient({
      baseUrl: `https://${PROXIED_HOST}:${tls.port}`,
      proxyEnv: { HTTPS_PROXY: `http://127.0.0.1:${port}` },
      caFile: caFile(),
      retries: 0,
    });
    const error = await rejection<ApiError>(client.stats('A'));
    expect(error.message).toBe(
      `cannot reach https://${PROXIED_HOST}:${tls.port}/ (connection refused reaching the proxy http://127.0.0.1:${port}); check HTTPS_PROXY (http://127.0.0.1:${port}), or add the service's host to NO_PROXY if it can be reached directly`,
    );
  });

  it('TLS through the tunnel is checked: without the CA the error says what to set', async () => {
    const { client } = makeClient({ baseUrl: `https://${PROXIED_HOST}:${tls.port}`, proxyEnv: { HTTPS_PROXY: squid.url }, retries: 0 });
    const error = await rejection<ApiError>(client.stats('A'));
    expect(error.message).toBe(
      `cannot reach https://${PROXIED_HOST}:${tls.port}/ (TLS error UNABLE_TO_VERIFY_LEAF_SIGNATURE); the service's certificate is not signed by an authority this machine trusts: if it is your organisation's own CA (or a proxy that inspects TLS), set ca_file in the profile, JOBS_CA_FILE or NODE_EXTRA_CA_CERTS to its PEM file`,
    );
  });
});

describe('through tinyproxy, which wants credentials', () => {
  // Started for these tests alone: without tinyproxy they fail, and the squid tests above still run.
  beforeAll(async () => {
    tinyproxy = await startTinyproxy(USER, PASSWORD, squid);
  }, 30_000);
  afterAll(() => tinyproxy?.stop());

  const proxyUrl = (user: string, password: string) => `http://${user}:${password}@127.0.0.1:${tinyproxy.port}`;

  it('sends the credentials of the proxy URL as Proxy-Authorization, on the tunnel and on plain requests', async () => {
    // tinyproxy forwards to squid, which alone resolves the name: success means tinyproxy let us in.
    const before = squid.log().length;
    const tunnel = makeClient({
      baseUrl: `https://${PROXIED_HOST}:${tls.port}`,
      proxyEnv: { HTTPS_PROXY: proxyUrl(USER, PASSWORD) },
      caFile: caFile(),
      retries: 0,
    });
    await tunnel.client.stats('AUTH-1');
    await tunnel.client.stats('AUTH-2');
    expect(tls.requests.slice(-2)).toEqual([`GET /jobs/AUTH-1/stats ${PROXIED_HOST}:${tls.port}`, `GET /jobs/AUTH-2/stats ${PROXIED_HOST}:${tls.port}`]);
    expect(tunnel.trace).toContain(`> through the proxy http://***@127.0.0.1:${tinyproxy.port} (from HTTPS_PROXY)`);
    const plainClient = makeClient({
      baseUrl: `http://${PROXIED_HOST}:${plainPort}`,
      proxyEnv: { HTTP_PROXY: proxyUrl(USER, PASSWORD) },
      allowInsecureHttp: true,
      retries: 0,
    });
    await plainClient.client.stats('AUTH-3');
    // The proxy takes the header for itself: the service never sees it.
    expect(plainSeen.at(-1)).toBe(`GET /jobs/AUTH-3/stats ${PROXIED_HOST}:${plainPort} -`);
    await until(() => newLines(squid, before).some((line) => line.includes('CONNECT')));
    expect(tinyproxy.log().filter((line) => /Request \(file descriptor \d+\): CONNECT jobs\.proxied\.test/.test(line))).toHaveLength(1);
    const everything = [...tunnel.trace, ...plainClient.trace].join('\n');
    expect(everything).not.toContain(PASSWORD);
  });

  it('without credentials: a 407 that says to put them in the variable, not repeated', async () => {
    const { client, waits, trace } = makeClient({
      baseUrl: `http://jobs.example.com:${plainPort}`,
      proxyEnv: { http_proxy: `http://127.0.0.1:${tinyproxy.port}` },
      allowInsecureHttp: true,
    });
    const error = await rejection<ApiError>(client.stats('A'));
    expect(error.message).toBe(
      `cannot reach http://jobs.example.com:${plainPort}/ (the proxy http://127.0.0.1:${tinyproxy.port} asks for credentials (407 Proxy Authentication Required)); put the proxy's user name and password in http_proxy: http://user:password@host:port`,
    );
    expect(waits).toEqual([]);
    expect(trace.filter((line) => line.startsWith('> GET'))).toHaveLength(1);
  });

  it('with wrong credentials: says they were not accepted, and never shows them', async () => {
    const { client, trace } = makeClient({
      baseUrl: `https://jobs.example.com:${tls.port}`,
      proxyEnv: { HTTPS_PROXY: proxyUrl(USER, 'wrong-password') },
      caFile: caFile(),
    });
    const error = await rejection<ApiError>(client.stats('A'));
    expect(error.message).toBe(
      `cannot reach https://jobs.example.com:${tls.port}/ (the proxy http://***@127.0.0.1:${tinyproxy.port} did not accept the credentials in HTTPS_PROXY (401 Unauthorized)); check the user name and password in HTTPS_PROXY (percent-encode @ : / in them)`,
    );
    const everything = [error.message, ...error.details, ...trace].join('\n');
    expect(everything).not.toContain('wrong-password');
    expect(everything).not.toContain(Buffer.from(`${USER}:wrong-password`).toString('base64'));
    expect(everything).not.toContain(TOKEN);
  });
});

async function until(check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a proxy that is not installed', () => {
  it('is named with the package to install, not "exited (-2)"', async () => {
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await expect(startTinyproxy(USER, PASSWORD)).rejects.toThrow(
        /^cannot run tinyproxy \(install it: sudo apt-get install -y tinyproxy; npm run test:real checks for it first\): spawn tinyproxy ENOENT$/,
      );
    } finally {
      process.env.PATH = path;
    }
  });
});
