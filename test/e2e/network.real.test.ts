// The built jobs on a company network: a service whose certificate a private CA signed, reached
// directly or through a real squid (CONNECT), trusted through JOBS_CA_FILE, the profile's ca_file
// or NODE_EXTRA_CA_CERTS; and what doctor and --verbose say about the proxy.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXIED_HOST, startSquid, startTinyproxy, type RunningProxy } from '../support/proxies.js';
import { expiredCert, makeCa, statsService, type StatsService, type TestCa } from '../support/tls-certs.js';
import { isolatedEnv, jobs } from './helpers.js';

const TOKEN = 'tok_NETWORK_9c1e77';
const PASSWORD = 'pr0xy-s3cret-e2e';
let ca: TestCa;
let service: StatsService;
let squid: RunningProxy;
let tinyproxy: RunningProxy;

beforeAll(async () => {
  ca = makeCa([PROXIED_HOST, 'localhost']);
  service = await statsService(ca);
}, 30_000);

afterAll(async () => {
  await service?.close();
  ca?.remove();
});

const direct = () => `https://127.0.0.1:${service.port}`;

/** An isolated env with a user config. */
function withUserConfig(yaml: string, extra: Record<string, string> = {}): Record<string, string> {
  const env = isolatedEnv(extra);
  mkdirSync(join(env.XDG_CONFIG_HOME!, 'jobs'), { recursive: true });
  writeFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'config.yaml'), yaml);
  return env;
}

describe('a private certificate authority', () => {
  it('without it: exit 7, and the message says what to set', async () => {
    const r = await jobs(['stats', 'A', '--retries', '0'], { env: isolatedEnv({ JOBS_BASE_URL: direct(), JOBS_TOKEN: TOKEN }) });
    expect(r.code).toBe(7);
    expect(r.stderr).toBe(
      `✖ A: cannot reach https://127.0.0.1:${service.port}/ (TLS error UNABLE_TO_VERIFY_LEAF_SIGNATURE); the service's certificate is not signed by an authority this machine trusts: if it is your organisation's own CA (or a proxy that inspects TLS), set ca_file in the profile, JOBS_CA_FILE or NODE_EXTRA_CA_CERTS to its PEM file\n`,
    );
  });

  it('JOBS_CA_FILE trusts it (and the usual authorities stay trusted)', async () => {
    const r = await jobs(['stats', 'CA-ENV', '--json'], { env: isolatedEnv({ JOBS_BASE_URL: direct(), JOBS_TOKEN: TOKEN, JOBS_CA_FILE: ca.caFile }) });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).stats).toMatchObject([{ reference: 'CA-ENV', views: 3 }]);
  });

  it("the profile's ca_file in the user config trusts it, relative to the config file", async () => {
    const env = withUserConfig(`profiles:\n  default:\n    base_url: ${direct()}\n`, { JOBS_TOKEN: TOKEN });
    const set = await jobs(['config', 'set', 'profiles.default.ca_file', ca.caFile], { env, cwd: env.HOME! });
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    const r = await jobs(['stats', 'CA-PROFILE', '--json'], { env, cwd: env.HOME! });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).stats).toMatchObject([{ reference: 'CA-PROFILE' }]);
    // A relative path: next to the config file.
    copyFileSync(ca.caFile, join(env.XDG_CONFIG_HOME!, 'jobs', 'ca.pem'));
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'jobs', 'config.yaml'), `profiles:\n  default:\n    base_url: ${direct()}\n    ca_file: ca.pem\n`);
    const relative = await jobs(['stats', 'CA-RELATIVE', '--json'], { env, cwd: env.HOME! });
    expect(relative.stderr).toBe('');
    expect(JSON.parse(relative.stdout).stats).toMatchObject([{ reference: 'CA-RELATIVE' }]);
  });

  it('a project config cannot add a certificate authority: ignored, with a warning', async () => {
    const env = isolatedEnv({ JOBS_TOKEN: TOKEN });
    const project = join(env.HOME!, 'project');
    mkdirSync(project);
    writeFileSync(join(project, '.jobsrc.yaml'), `profiles:\n  default:\n    base_url: ${direct()}\n    ca_file: ${ca.caFile}\n`);
    const r = await jobs(['stats', 'A', '--retries', '0'], { env, cwd: project });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(
      '.jobsrc.yaml: profiles.default.ca_file is ignored in a project config (a checkout must not be able to add a certificate authority you trust); set it in your user config, or set JOBS_CA_FILE',
    );
    expect(r.stderr).toContain('(TLS error UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
    const set = await jobs(['config', 'set', '--project', 'profiles.default.ca_file', ca.caFile], { env, cwd: project });
    expect(set.code).toBe(2);
    expect(set.stderr).toContain('ca_file is not read from a project config');
  });

  it('NODE_EXTRA_CA_CERTS trusts it too (Node reads it at start-up)', async () => {
    const r = await jobs(['stats', 'CA-NODE', '--json'], { env: isolatedEnv({ JOBS_BASE_URL: direct(), JOBS_TOKEN: TOKEN, NODE_EXTRA_CA_CERTS: ca.caFile }) });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).stats).toMatchObject([{ reference: 'CA-NODE' }]);
  });

  it('a CA file that is missing or not PEM is a configuration error (exit 2), nothing sent', async () => {
    const requests = service.requests.length;
    const missing = await jobs(['stats', 'A'], { env: isolatedEnv({ JOBS_BASE_URL: direct(), JOBS_TOKEN: TOKEN, JOBS_CA_FILE: '/nonexistent/ca.pem' }) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the CA file /nonexistent/ca.pem (from JOBS_CA_FILE) does not exist');
    const env = isolatedEnv({ JOBS_BASE_URL: direct(), JOBS_TOKEN: TOKEN });
    writeFileSync(join(env.HOME!, 'not.pem'), 'hello\n');
    const notPem = await jobs(['stats', 'A'], { env: { ...env, JOBS_CA_FILE: join(env.HOME!, 'not.pem') } });
    expect(notPem.code).toBe(2);
    expect(notPem.stderr).toContain('holds no PEM certificate');
    expect(service.requests.length).toBe(requests);
  });

  it('an expired certificate says so, and that trusting a CA does not mend it', async () => {
    const old = await statsService(expiredCert(ca));
    try {
      const r = await jobs(['stats', 'A', '--retries', '0'], {
        env: isolatedEnv({ JOBS_BASE_URL: `https://127.0.0.1:${old.port}`, JOBS_TOKEN: TOKEN, JOBS_CA_FILE: ca.caFile }),
      });
      expect(r.code).toBe(7);
      expect(r.stderr).toBe(
        `✖ A: cannot reach https://127.0.0.1:${old.port}/ (TLS error CERT_HAS_EXPIRED); the service's certificate has expired: check this machine's clock, then tell the service's operators (trusting a CA with ca_file, JOBS_CA_FILE or NODE_EXTRA_CA_CERTS does not mend a certificate's dates)\n`,
      );
      expect(old.requests).toEqual([]);
    } finally {
      await old.close();
    }
  });

  it('a certificate for another name, or a CA file that did not sign it, says so', async () => {
    const other = makeCa(['elsewhere.test']);
    const wrong = await statsService({ ...other, caFile: other.caFile });
    try {
      const r = await jobs(['stats', 'A', '--retries', '0'], {
        env: isolatedEnv({ JOBS_BASE_URL: `https://localhost:${wrong.port}`, JOBS_TOKEN: TOKEN, JOBS_CA_FILE: other.caFile }),
      });
      expect(r.code).toBe(7);
      expect(r.stderr).toContain(
        "(TLS error ERR_TLS_CERT_ALTNAME_INVALID); the service's certificate is for another host name: check the base URL; if a proxy that inspects TLS signs for the service, set ca_file in the profile, JOBS_CA_FILE or NODE_EXTRA_CA_CERTS to the proxy's CA",
      );
      // A CA file that is not the one that signed: named in the message.
      const notThatCa = await jobs(['stats', 'A', '--retries', '0'], {
        env: isolatedEnv({ JOBS_BASE_URL: direct(), JOBS_TOKEN: TOKEN, JOBS_CA_FILE: other.caFile }),
      });
      expect(notThatCa.stderr).toBe(
        `✖ A: cannot reach ${direct()}/ (TLS error UNABLE_TO_VERIFY_LEAF_SIGNATURE); the service's certificate is signed neither by an authority this machine trusts nor by the CA file ${other.caFile} (from JOBS_CA_FILE)\n`,
      );
    } finally {
      await wrong.close();
      other.remove();
    }
  });
});

describe('through a proxy', () => {
  // Started here, not for the whole file: a proxy that cannot start fails these tests alone.
  beforeAll(async () => {
    squid = await startSquid();
    tinyproxy = await startTinyproxy('alice', PASSWORD, squid);
  }, 30_000);
  afterAll(() => Promise.all([squid?.stop(), tinyproxy?.stop()]));

  it('reaches the service through squid (CONNECT) with the CA, and --verbose names the proxy without its password', async () => {
    const before = squid.log().length;
    const env = isolatedEnv({
      JOBS_BASE_URL: `https://${PROXIED_HOST}:${service.port}`,
      JOBS_TOKEN: TOKEN,
      JOBS_CA_FILE: ca.caFile,
      HTTPS_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${tinyproxy.port}`,
    });
    const r = await jobs(['stats', 'VIA-PROXY', '--json', '--verbose'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).stats).toMatchObject([{ reference: 'VIA-PROXY', views: 3 }]);
    expect(r.stderr).toContain(`> through the proxy http://***@127.0.0.1:${tinyproxy.port} (from HTTPS_PROXY)`);
    expect(r.stderr + r.stdout).not.toContain(PASSWORD);
    expect(r.stderr + r.stdout).not.toContain(TOKEN);
    expect(service.requests.at(-1)).toBe(`GET /jobs/VIA-PROXY/stats ${PROXIED_HOST}:${service.port}`);
    await until(() =>
      squid
        .log()
        .slice(before)
        .some((line) => line.includes(`CONNECT ${PROXIED_HOST}:${service.port}`)),
    );
  });

  it('a proxy that wants credentials: exit 7 and what to set', async () => {
    const env = isolatedEnv({
      JOBS_BASE_URL: `https://${PROXIED_HOST}:${service.port}`,
      JOBS_TOKEN: TOKEN,
      JOBS_CA_FILE: ca.caFile,
      https_proxy: `127.0.0.1:${tinyproxy.port}`,
    });
    const r = await jobs(['stats', 'A'], { env });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(
      `(the proxy http://127.0.0.1:${tinyproxy.port} asks for credentials (407 Proxy Authentication Required)); put the proxy's user name and password in https_proxy: http://user:password@host:port\n`,
    );
  });

  it('doctor says which proxy and why, or that NO_PROXY matched, never the password', async () => {
    const base = { JOBS_BASE_URL: `https://${PROXIED_HOST}:${service.port}`, JOBS_TOKEN: TOKEN, JOBS_CA_FILE: ca.caFile };
    const proxied = await jobs(['doctor'], { env: isolatedEnv({ ...base, HTTPS_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${tinyproxy.port}` }) });
    expect(proxied.stdout).toContain(`ok   proxy: http://***@127.0.0.1:${tinyproxy.port} (from HTTPS_PROXY)\n`);
    expect(proxied.stdout).toContain('ok   service: reachable');
    expect(proxied.stdout).toMatch(/ca_file +\S+ca\.pem +JOBS_CA_FILE/);
    expect(proxied.stdout + proxied.stderr).not.toContain(PASSWORD);
    const bypassed = await jobs(['doctor', '--retries', '0'], { env: isolatedEnv({ ...base, HTTPS_PROXY: squid.url, NO_PROXY: '.proxied.test' }) });
    expect(bypassed.stdout).toContain('ok   proxy: none: NO_PROXY entry ".proxied.test" matches the service (HTTPS_PROXY is set)\n');
    const none = await jobs(['doctor', '--retries', '0'], { env: isolatedEnv({ ...base, JOBS_BASE_URL: direct() }) });
    expect(none.stdout).toContain('ok   proxy: none: the service is on loopback, which is never proxied\n');
  });
});

async function until(check: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
