import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type TLSSocket } from 'node:tls';
import forge from 'node-forge';

export interface TestPki {
  dir: string;
  caPath: string;
  serverCertPath: string;
  serverKeyPath: string;
  clientCertPath: string;
  clientKeyPath: string;
  /** A CA nobody signed anything with, for the "wrong CA" case. */
  otherCaPath: string;
}

const rsaPair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKey: forge.pki.privateKeyFromPem(privateKey), publicKey: forge.pki.publicKeyFromPem(publicKey), privatePem: privateKey };
};

function certificate(
  subject: string,
  keys: ReturnType<typeof rsaPair>,
  issuer: { name: string; key: forge.pki.rsa.PrivateKey } | null,
  extensions: object[],
): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${Math.floor(Math.random() * 1e12).toString(16)}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  cert.setSubject([{ name: 'commonName', value: subject }]);
  cert.setIssuer([{ name: 'commonName', value: issuer?.name ?? subject }]);
  cert.setExtensions(extensions);
  cert.sign(issuer?.key ?? keys.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** A CA, a server certificate for localhost/127.0.0.1 and a client certificate it signed, written to a temp dir. */
export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'temporal-tls-'));
  const ca = rsaPair();
  const caPem = certificate('Test CA', ca, null, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  const issuer = { name: 'Test CA', key: ca.privateKey };
  const server = rsaPair();
  const serverPem = certificate('localhost', server, issuer, [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  const client = rsaPair();
  const clientPem = certificate('test-client', client, issuer, [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', clientAuth: true },
  ]);
  const other = rsaPair();
  const otherPem = certificate('Other CA', other, null, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, critical: true },
  ]);
  const files = {
    caPath: ['ca.pem', caPem],
    serverCertPath: ['server.pem', serverPem],
    serverKeyPath: ['server.key', server.privatePem],
    clientCertPath: ['client.pem', clientPem],
    clientKeyPath: ['client.key', client.privatePem],
    otherCaPath: ['other-ca.pem', otherPem],
  } as const;
  const out = { dir } as TestPki;
  for (const [key, [name, pem]] of Object.entries(files)) {
    writeFileSync(join(dir, name), pem);
    (out as unknown as Record<string, string>)[key] = join(dir, name);
  }
  return out;
}

/**
 * A TLS-terminating proxy on loopback in front of a plaintext gRPC server (the Temporal dev server): it speaks
 * HTTP/2 over TLS (ALPN h2), requires a client certificate signed by the test CA (mTLS), and passes the bytes on.
 */
export async function startTlsProxy(
  pki: TestPki,
  upstream: { host: string; port: number },
): Promise<{ address: string; handshakeFailures: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { handshakeFailures: 0 };
  const server = createServer(
    {
      key: readFileSync(pki.serverKeyPath),
      cert: readFileSync(pki.serverCertPath),
      ca: readFileSync(pki.caPath),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (client: TLSSocket) => {
      const up = connect(upstream.port, upstream.host);
      sockets.add(client).add(up);
      const end = () => {
        client.destroy();
        up.destroy();
        sockets.delete(client);
        sockets.delete(up);
      };
      client.on('error', end).on('close', end);
      up.on('error', end).on('close', end);
      client.pipe(up).pipe(client);
    },
  );
  server.on('tlsClientError', () => void (state.handshakeFailures += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    get handshakeFailures() {
      return state.handshakeFailures;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
