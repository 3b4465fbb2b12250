import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const OPENSSL = '/usr/bin/openssl';

/** How the authority answers the next requests: as it should, or in one of the ways a real one fails. */
export type AuthorityBehaviour =
  | { kind: 'ok' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'garbage' }
  | { kind: 'httpError'; status: number }
  /** A valid token, but over another imprint than asked for. */
  | { kind: 'wrongImprint' }
  /** A valid token, but without the request's nonce (a replayed answer). */
  | { kind: 'wrongNonce' };

export interface TestTimestampAuthority {
  url: string;
  /** The root CA's certificate (PEM), the chain a notebook is given to trust. */
  caPem: string;
  /** The authority's own signing certificate (PEM). */
  tsaPem: string;
  /** The policy OID its tokens carry. */
  policy: string;
  /** How many requests reached it. */
  readonly requests: number;
  behave(behaviour: AuthorityBehaviour): void;
  /** Verifies a token (DER) over `data` with OpenSSL itself, as an inspector would: true when OpenSSL says OK. */
  opensslVerify(token: Uint8Array, data: Uint8Array): Promise<boolean>;
  stop(): Promise<void>;
}

export interface TestAuthorityOptions {
  /** The signing certificate's validity: `expired` makes one that ended before today. */
  certificate?: 'valid' | 'expired';
  policy?: string;
}

/**
 * A real RFC 3161 time-stamping authority for tests: a root CA and a signing certificate made with the
 * OpenSSL command line in a temporary folder, and `openssl ts -reply` answering each request behind a small
 * HTTP handler on a free loopback port. Its behaviour can be switched to the failures a notebook must
 * survive (slow, garbage, an HTTP error, a token over the wrong imprint or nonce); stop() ends it (down).
 */
export async function startTestTimestampAuthority(options: TestAuthorityOptions = {}): Promise<TestTimestampAuthority> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eln-tsa-'));
  const policy = options.policy ?? '1.3.6.1.4.1.59999.1.1';
  await makeCertificates(dir, options.certificate ?? 'valid');
  await writeFile(path.join(dir, 'tsa.cnf'), authorityConfig(dir, policy));
  let behaviour: AuthorityBehaviour = { kind: 'ok' };
  let requests = 0;
  let sequence = 0;
  const sockets = new Set<Socket>();

  const reply = async (query: Buffer): Promise<Buffer> => {
    sequence += 1;
    const queryFile = path.join(dir, `q${sequence}.tsq`);
    const replyFile = path.join(dir, `r${sequence}.tsr`);
    let asked = query;
    if (behaviour.kind === 'wrongImprint' || behaviour.kind === 'wrongNonce') {
      // A fresh query of OpenSSL's own: another imprint, or this one's imprint without the caller's nonce.
      const other = path.join(dir, `other${sequence}.bin`);
      await writeFile(other, behaviour.kind === 'wrongImprint' ? `not what was asked ${sequence}` : '');
      const args = ['ts', '-query', '-sha256', '-cert', '-out', queryFile];
      if (behaviour.kind === 'wrongImprint') args.push('-data', other);
      else args.push('-digest', await imprintOf(query), '-no_nonce');
      await run(OPENSSL, args);
      asked = await readFile(queryFile);
    } else {
      await writeFile(queryFile, asked);
    }
    await run(OPENSSL, ['ts', '-reply', '-config', path.join(dir, 'tsa.cnf'), '-queryfile', queryFile, '-out', replyFile]);
    return readFile(replyFile);
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      requests += 1;
      const body = await readBody(request);
      const now = behaviour;
      if (now.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, now.delayMs));
      if (now.kind === 'httpError') {
        response.writeHead(now.status).end('unavailable');
        return;
      }
      if (now.kind === 'garbage') {
        response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(Buffer.from('this is not a token'));
        return;
      }
      const der = await reply(body);
      response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(der);
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/tsa`,
    caPem: await readFile(path.join(dir, 'ca.crt'), 'utf8'),
    tsaPem: await readFile(path.join(dir, 'tsa.crt'), 'utf8'),
    policy,
    get requests() {
      return requests;
    },
    behave(next) {
      behaviour = next;
    },
    async opensslVerify(token, data) {
      sequence += 1;
      const tokenFile = path.join(dir, `verify${sequence}.tsr`);
      const dataFile = path.join(dir, `verify${sequence}.bin`);
      await writeFile(tokenFile, token);
      await writeFile(dataFile, data);
      try {
        const { stdout } = await run(OPENSSL, [
          'ts',
          '-verify',
          '-token_in',
          '-in',
          tokenFile,
          '-data',
          dataFile,
          '-CAfile',
          path.join(dir, 'ca.crt'),
          '-untrusted',
          path.join(dir, 'tsa.crt'),
        ]);
        return stdout.includes('Verification: OK');
      } catch {
        return false;
      }
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** The hex imprint of a query, read back by OpenSSL. */
async function imprintOf(query: Buffer): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'eln-tsq-'));
  try {
    await writeFile(path.join(dir, 'q.tsq'), query);
    const { stdout } = await run(OPENSSL, ['ts', '-query', '-in', path.join(dir, 'q.tsq'), '-text']);
    const hex = /Message data:\s*([\s\S]*?)\n\s*Policy OID/.exec(stdout)?.[1] ?? '';
    return [...hex.matchAll(/ - ((?:[0-9a-f]{2}[ -]){1,16})/g)].map((m) => m[1]!.replace(/[ -]/g, '')).join('');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function makeCertificates(dir: string, validity: 'valid' | 'expired'): Promise<void> {
  const file = (name: string) => path.join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await run(OPENSSL, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    '-subj',
    '/CN=ELN Test Root CA',
    '-days',
    '3650',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await run(OPENSSL, [
    'req',
    '-new',
    ...ec,
    '-keyout',
    file('tsa.key'),
    '-out',
    file('tsa.csr'),
    '-subj',
    '/CN=ELN Test Time Stamping Authority',
  ]);
  await writeFile(file('index.txt'), '');
  await writeFile(file('serial'), '1000\n');
  await writeFile(file('ca.cnf'), caConfig(dir));
  const dates = validity === 'expired' ? ['-startdate', '20200101000000Z', '-enddate', '20210101000000Z'] : ['-days', '365'];
  await run(OPENSSL, ['ca', '-batch', '-config', file('ca.cnf'), '-in', file('tsa.csr'), '-out', file('tsa.crt'), '-notext', ...dates]);
}

function caConfig(dir: string): string {
  return `[ ca ]
default_ca = test_ca
[ test_ca ]
dir = ${dir}
database = $dir/index.txt
serial = $dir/serial
new_certs_dir = $dir
certificate = $dir/ca.crt
private_key = $dir/ca.key
default_md = sha256
policy = anything
x509_extensions = tsa_ext
copy_extensions = none
unique_subject = no
[ anything ]
commonName = supplied
[ tsa_ext ]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = critical,timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;
}

function authorityConfig(dir: string, policy: string): string {
  return `[ tsa ]
default_tsa = test_tsa
[ test_tsa ]
dir = ${dir}
serial = $dir/tsaserial
crypto_device = builtin
signer_cert = $dir/tsa.crt
certs = $dir/tsa.crt
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = ${policy}
other_policies = 1.3.6.1.4.1.59999.1.2
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = no
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`;
}
