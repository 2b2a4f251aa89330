/**
 * A private certificate authority and a server certificate it signed, made with openssl for a test:
 * what a company CA (or a TLS-inspecting proxy) looks like to the client. Plus a local https service
 * that answers stats and counts its connections.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';

export interface TestCa {
  dir: string;
  /** The CA's certificate (PEM file): what ca_file / JOBS_CA_FILE / NODE_EXTRA_CA_CERTS name. */
  caFile: string;
  cert: Buffer;
  key: Buffer;
  remove(): void;
}

/** A CA, and a certificate it signed for `names` (DNS names) and 127.0.0.1. */
export function makeCa(names: string[]): TestCa {
  const dir = tempDir('jobs-ca-');
  const file = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      ...ec,
      '-days',
      '2',
      '-subj',
      '/CN=Jobs Test Company CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
    ],
    { stdio: 'ignore' },
  );
  const san = ['IP:127.0.0.1', ...names.map((n) => `DNS:${n}`)].join(',');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      ...ec,
      '-days',
      '2',
      '-subj',
      `/CN=${names[0] ?? '127.0.0.1'}`,
      '-addext',
      `subjectAltName=${san}`,
      '-addext',
      'basicConstraints=CA:FALSE',
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-keyout',
      file('server.key'),
      '-out',
      file('server.pem'),
    ],
    { stdio: 'ignore' },
  );
  return {
    dir,
    caFile: file('ca.pem'),
    cert: readFileSync(file('server.pem')),
    key: readFileSync(file('server.key')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The same CA's certificate for 127.0.0.1 that expired in 2020 (through `openssl ca`, which takes dates). */
export function expiredCert(ca: TestCa): TestCa {
  const file = (name: string) => join(ca.dir, name);
  writeFileSync(
    file('ca.cnf'),
    '[ca]\ndefault_ca = c\n[c]\ndatabase = index.txt\nnew_certs_dir = .\nserial = serial\ndefault_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n',
  );
  writeFileSync(file('index.txt'), '');
  writeFileSync(file('serial'), '01\n');
  writeFileSync(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  execFileSync(
    'openssl',
    [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      file('old.key'),
      '-out',
      file('old.csr'),
    ],
    { stdio: 'ignore' },
  );
  execFileSync(
    'openssl',
    [
      'ca',
      '-batch',
      '-config',
      file('ca.cnf'),
      '-startdate',
      '20200101000000Z',
      '-enddate',
      '20200102000000Z',
      '-in',
      file('old.csr'),
      '-out',
      file('old.pem'),
      '-cert',
      ca.caFile,
      '-keyfile',
      file('ca.key'),
      '-extfile',
      file('ext.cnf'),
    ],
    { stdio: 'ignore', cwd: ca.dir },
  );
  return { ...ca, cert: readFileSync(file('old.pem')), key: readFileSync(file('old.key')), remove: () => {} };
}

export interface StatsService {
  port: number;
  /** `GET /jobs/A/stats host` per request. */
  requests: string[];
  /** TLS connections accepted. */
  connections(): number;
  close(): Promise<void>;
}

/** An https service on 127.0.0.1 answering every request with stats. */
export async function statsService(ca: TestCa): Promise<StatsService> {
  const requests: string[] = [];
  let connections = 0;
  const server: Server = createServer({ cert: ca.cert, key: ca.key }, (req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.host}`);
    req.resume();
    req.on('end', () =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ views: 3, likes: 1, applications: 2, applications_unviewed: 1 })),
    );
  });
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
