/**
 * A worker asked to stop while the store is down must still stop: after a shutdown request the SDK keeps retrying
 * a local activity that fails, so without WORKER_SHUTDOWN_FORCE_MS the process never exited (src/worker/worker.ts's
 * workerTuning). What it leaves in flight is finished by another worker once the store answers, each event once.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../scripts/stack/servers';
import { workflowIdFor } from '../../src/billing/subscriber-id';
import { billingClient } from '../support/billing-client';
import { randomSuffix } from '../support/config';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { providerEvent } from '../support/provider-events';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { adminToken } from '../support/tokens';

const APP = `stop-${randomSuffix()}`;
const GRACE_MS = 2_000;
const FORCE_MS = 6_000;
const USERS = ['ada', 'grace', 'linus'];

describe('worker shutdown during a store outage (worker process, store behind a proxy)', () => {
  let h: Harness;
  let proxy: TcpProxy | undefined;
  let worker: ChildProcess | undefined;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    worker?.kill('SIGKILL');
    await proxy?.close();
    await h?.close();
  });

  it('SIGTERM ends the process within WORKER_SHUTDOWN_FORCE_MS; another worker then applies every event once', async () => {
    const auth = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: APP, name: 'Stop' } })).body.authorization;
    const billing = billingClient(h, APP, () => auth);
    const store = new URL(h.config.mongo.uri);
    proxy = await startTcpProxy(`${store.hostname}:${store.port}`);
    const health = `127.0.0.1:${await freePort()}`;
    worker = await h.spawnWorkerProcess({
      MONGODB_URI: `mongodb://${proxy.address}/`,
      WORKER_ROLES: 'billing',
      WORKER_HEALTH_ADDRESS: health,
      WORKER_SHUTDOWN_GRACE_MS: String(GRACE_MS),
      WORKER_SHUTDOWN_FORCE_MS: String(FORCE_MS),
    });
    const exited = new Promise<number | null>((resolve) => worker!.once('exit', (code) => resolve(code)));
    await eventually(
      () => fetch(`http://${health}/healthz`).then((r) => r.status),
      (status) => status === 200,
      { what: "the worker's liveness", timeoutMs: 60_000 },
    );

    // The store goes away for the worker only (the API's own connection stays): its local activities fail from now on.
    await proxy.close();
    for (const id of USERS) await billing.deliver(providerEvent('INITIAL_PURCHASE', id, { at: Date.now() }));
    // Each subscriber's first workflow task is taken by the worker, which holds it while its store reads fail.
    for (const id of USERS) {
      await eventually(
        async () => {
          const history = await h.temporal.client.workflow.getHandle(workflowIdFor(`app:${APP}`, id)).fetchHistory();
          return history.events?.some((e) => e.workflowTaskStartedEventAttributes) ?? false;
        },
        (taken) => taken,
        { what: `${id}'s first workflow task taken by the worker`, timeoutMs: 60_000 },
      );
    }

    const stopAsked = Date.now();
    worker.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise<'still running'>((r) => setTimeout(() => r('still running'), FORCE_MS + 20_000).unref()),
    ]);
    assert.notEqual(code, 'still running', `the worker did not exit within ${FORCE_MS + 20_000} ms of SIGTERM`);
    assert.equal(code, 0, 'a forced stop is a stop asked for, not a crash');
    console.log(`      (the worker exited ${Date.now() - stopAsked} ms after SIGTERM)`);

    // Nothing lost: a worker on the store finishes what the stopped one held, and counts each purchase once.
    await h.startWorker();
    for (const id of USERS) await billing.settled(id, 1);
    const metrics = await eventually(billing.metrics, (m) => m.activeSubscriptions === USERS.length, {
      what: 'every purchase counted',
      timeoutMs: 60_000,
    });
    assert.equal(metrics.mrr.amount, Number((USERS.length * 9.99).toFixed(2)));
  });
});
