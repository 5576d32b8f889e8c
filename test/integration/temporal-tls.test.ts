/**
 * A Temporal cluster behind TLS with client certificates (mTLS): the dev server behind a TLS-terminating proxy on
 * loopback, with a CA and certificates the test makes. The API's client, the worker and the CLI connect with the
 * TEMPORAL_TLS_* settings; a skill invocation and a billing event go through; a wrong CA or a missing client
 * certificate fails with a clear message.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config';
import { connectTemporal } from '../../src/temporal/client';
import { TemporalTlsError } from '../../src/temporal/connection';
import { testConfig } from '../support/config';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { providerEvent, envelope } from '../support/provider-events';
import { repoRoot } from '../support/repo-root';
import { createTestPki, startTlsProxy, type TestPki } from '../support/tls-proxy';
import { adminToken, projectToken } from '../support/tokens';
import { invoke, loadDemo, settle } from './skills-helpers';

describe('Temporal over TLS with client certificates (dev server behind a TLS proxy, real store)', () => {
  let pki: TestPki;
  let proxy: Awaited<ReturnType<typeof startTlsProxy>>;
  let h: Harness;
  let tlsEnv: Record<string, string>;

  before(async () => {
    pki = createTestPki();
    const [host, port] = testConfig().temporal.address.split(':');
    proxy = await startTlsProxy(pki, { host: host!, port: Number(port) });
    tlsEnv = {
      TEMPORAL_ADDRESS: proxy.address,
      TEMPORAL_TLS_CA_PATH: pki.caPath,
      TEMPORAL_TLS_CERT_PATH: pki.clientCertPath,
      TEMPORAL_TLS_KEY_PATH: pki.clientKeyPath,
      TEMPORAL_TLS_SERVER_NAME: 'localhost',
    };
    h = await startHarness(tlsEnv);
    await h.startWorker();
    await loadDemo(h);
  });
  after(async () => {
    await h?.close();
    await proxy?.close();
    if (pki) rmSync(pki.dir, { recursive: true, force: true });
  });

  it('a skill invocation and a billing event go through the API, the worker and Temporal over mTLS', async () => {
    const member = projectToken(['acme-web']);
    const res = await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' });
    assert.equal(res.status, 202, res.text);
    assert.equal((await settle(h, member, res.body.id)).status, 'completed');

    const slug = `tls-${Date.now().toString(36)}`;
    const app = await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug, name: 'TLS' } });
    const hook = await h.request('POST', `/api/saas/iap/billingprovider/webhook?app=${slug}`, {
      body: envelope(providerEvent('INITIAL_PURCHASE', 'tls-user', { at: Date.now() })),
      headers: { Authorization: app.body.authorization },
    });
    assert.equal(hook.status, 200, hook.text);
    await eventually(
      () => h.request('GET', `/v1/billing/customers/tls-user?app=${slug}`, { token: adminToken() }),
      (r) => r.status === 200 && r.body.status === 'active',
      {
        what: 'the purchase applied over mTLS',
        timeoutMs: 30_000,
      },
    );
  });

  it('the CLI connects with the same settings', async () => {
    // Asynchronously: the proxy runs in this process and must keep serving while the CLI talks through it.
    const cli = spawn(process.execPath, [join(repoRoot(), 'dist/src/cli.js'), 'setup-temporal'], {
      env: { ...process.env, ...envOf(testConfig()), ...tlsEnv },
    });
    let output = '';
    cli.stdout.on('data', (d: Buffer) => (output += d.toString()));
    cli.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => cli.once('close', resolve));
    assert.equal(code, 0, output);
  });

  it('a wrong CA, or no client certificate, fails to connect with a clear message; an unreadable file names its variable', async () => {
    const config = (env: Record<string, string>) => loadConfig({ ...envOf(testConfig()), ...env }).temporal;
    const before = proxy.handshakeFailures;
    const { TEMPORAL_TLS_CERT_PATH: _c, TEMPORAL_TLS_KEY_PATH: _k, ...noClientCert } = tlsEnv;
    // Both at once: each fails only when the client's connect deadline passes.
    await Promise.all([
      assert.rejects(connectTemporal(config({ ...tlsEnv, TEMPORAL_TLS_CA_PATH: pki.otherCaPath })), /certificate|tls|transport|connect/i),
      assert.rejects(connectTemporal(config(noClientCert)), /certificate|tls|transport|connect|handshake|closed|reset/i),
    ]);
    assert.ok(proxy.handshakeFailures > before, 'the proxy refused the handshakes');
    await assert.rejects(connectTemporal(config({ ...tlsEnv, TEMPORAL_TLS_CA_PATH: '/nonexistent/ca.pem' })), (err: Error) => {
      assert.ok(err instanceof TemporalTlsError);
      assert.match(err.message, /TEMPORAL_TLS_CA_PATH \(\/nonexistent\/ca\.pem\) cannot be read/);
      return true;
    });
    assert.throws(
      () => config({ TEMPORAL_TLS_CERT_PATH: pki.clientCertPath }),
      /TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH go together/,
    );
  });
});

/** The environment a config came from, for child processes: the test config's own variables. */
function envOf(config: ReturnType<typeof testConfig>): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: config.temporal.address,
    TEMPORAL_NAMESPACE: config.temporal.namespace,
    TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
    MONGODB_URI: config.mongo.uri,
    MONGODB_DB: config.mongo.dbName,
    JWT_SECRET: config.jwt.secret ?? '',
  };
}
