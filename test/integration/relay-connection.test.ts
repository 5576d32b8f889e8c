/**
 * The relay's client on a native connection (src/temporal/client.ts): made on first use, so an API that starts
 * while Temporal is unreachable comes up; a failed connect is tried again on the next use instead of being
 * remembered; once closed it refuses. Real dev server, reached through a TCP proxy that comes up late.
 */
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { freePort } from '../../scripts/stack/servers';
import { lazyNativeClient } from '../../src/temporal/client';
import { testConfig } from '../support/config';
import { eventually } from '../support/eventually';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

describe('the relay’s native Temporal connection (real dev server)', () => {
  let proxy: TcpProxy | null = null;
  after(async () => proxy?.close());

  it('connects on first use, again after a failed connect, and refuses once closed', async () => {
    const config = testConfig().temporal;
    const port = await freePort();
    const relay = lazyNativeClient({ ...config, address: `127.0.0.1:${port}` });
    // Nothing listens there yet: the use fails, and says so.
    await assert.rejects(relay.get(), /connect|refused|transport|unavailable/i);
    proxy = await startTcpProxy(config.address, port);
    // The next use connects (the failure was not kept), and the client reaches the real server.
    const client = await eventually(
      () => relay.get().catch(() => null),
      (c) => c !== null,
      { what: 'the relay client to connect once Temporal is reachable', timeoutMs: 30_000, intervalMs: 250 },
    );
    const { namespaceInfo } = await client!.workflowService.describeNamespace({ namespace: config.namespace });
    assert.equal(namespaceInfo?.name, config.namespace);
    assert.equal(await relay.get(), client, 'one client, connected once');
    await relay.close();
    await assert.rejects(relay.get(), /closed/);
  });

  it('a connect the server never answers gives up at the caller’s deadline', async () => {
    // Accepts TCP and says nothing, like a half-open network path.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const addr = silent.address();
    const relay = lazyNativeClient({ ...testConfig().temporal, address: `127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` });
    try {
      const started = Date.now();
      await assert.rejects(relay.get(Date.now() + 500), /took too long|connect|transport|unavailable|deadline/i);
      assert.ok(Date.now() - started < 5_000, `gave up after ${Date.now() - started} ms`);
    } finally {
      await relay.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});
