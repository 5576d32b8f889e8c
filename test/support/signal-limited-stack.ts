import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startTemporal, type RunningTemporal } from '../../scripts/stack/servers';
import { startHarness, type Harness } from './harness';
import { adminToken } from './tokens';

/**
 * A suite's own Temporal dev server that takes at most `signalsPerRun` signals per workflow run and suggests
 * continue-as-new after `continueAsNewAfter` history events, with a harness on it (the global one keeps the
 * server's defaults). `h()` is the harness once `before` ran; `metrics(app)` the app's totals as the API shows them.
 */
export function signalLimitedStack(name: string, limits: { signalsPerRun: number; continueAsNewAfter: number }) {
  let temporal: RunningTemporal | undefined;
  let harness: Harness | undefined;
  const admin = adminToken();

  before(async () => {
    temporal = await startTemporal({
      dataDir: join(process.env.TEST_DATA_DIR ?? '/tmp', `${name}-temporal-${Date.now()}`),
      persistent: false,
      headless: true,
      dynamicConfig: {
        'history.maximumSignalsPerExecution': limits.signalsPerRun,
        'limit.historyCount.suggestContinueAsNew': limits.continueAsNewAfter,
      },
    });
    harness = await startHarness({ TEMPORAL_ADDRESS: temporal.address });
  });
  after(async () => {
    await harness?.close();
    await temporal?.stop();
  });

  const h = () => {
    assert.ok(harness, 'the stack is started in before()');
    return harness;
  };
  return {
    h,
    admin,
    async metrics(app: string) {
      const res = await h().request('GET', `/v1/billing/metrics?app=${app}`, { token: admin });
      assert.equal(res.status, 200, res.text);
      return res.body as { activeSubscriptions: number; mrr: { amount: number } };
    },
  };
}
