import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { defineSearchAttributeKey } from '@temporalio/common';
import { signalSubscriberWorkflow } from '../../src/temporal/clients/billing-subscriber';
import { systemClock } from '../../src/config/clock';
import {
  billingSubscriberContract,
  SUBSCRIBER_PATCHES,
  type BillingSubscriberWorkflow,
} from '../../src/contracts/workflows/billing-subscriber';
import { workflowIdFor } from '../../src/billing/subscriber-id';
import { randomSuffix } from '../support/config';
import { eventually } from '../support/eventually';
import { cliEnv, startHarness, type Harness } from '../support/harness';
import { providerEvent } from '../support/provider-events';

const CLI = join(__dirname, '..', '..', 'src', 'cli.js');
const CHANGE_VERSION = defineSearchAttributeKey('TemporalChangeVersion', 'KEYWORD_LIST');

interface ErasReport {
  taskQueue: string;
  counts: Record<'v1' | 'v2' | 'v3' | 'v4' | 'v5', number>;
  mayGo: string[];
}

/**
 * The sunset check of the subscriber's patch eras (ARCHITECTURE.md, "Patch eras and their sunset") against the
 * real Temporal dev server: `cli billing-patch-eras` counts open runs per era on its task queue.
 */
describe('billing patch eras: open subscriber runs per era (cli billing-patch-eras)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await h.startWorker();
  });
  after(async () => h?.close());

  const eras = (taskQueue: string) => async (): Promise<ErasReport> => {
    const res = spawnSync(process.execPath, [CLI, 'billing-patch-eras', '--json'], {
      env: cliEnv(h, { TEMPORAL_TASK_QUEUE: taskQueue }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(res.status, 0, res.stdout + res.stderr);
    return JSON.parse(res.stdout) as ErasReport;
  };

  it('counts the runs today’s code starts in the newest era, recorded so by the SDK itself', async () => {
    const queue = h.config.temporal.taskQueue;
    const at = Date.now();
    const users = ['era-a', 'era-b', 'era-c'];
    for (const user of users)
      await signalSubscriberWorkflow(
        h.temporal.client,
        queue,
        { scope: 'app:eras', subscriberId: user },
        {
          kind: 'event',
          event: providerEvent('INITIAL_PURCHASE', user, { at }),
        },
        systemClock,
      );
    // Each run's first workflow task records the work-v5 patch, and with it the TemporalChangeVersion the count reads.
    const recorded = await eventually(
      () =>
        Promise.all(
          users.map(async (user) => {
            const described = await h.temporal.client.workflow.getHandle(workflowIdFor('app:eras', user)).describe();
            return described.typedSearchAttributes.get(CHANGE_VERSION) ?? null;
          }),
        ),
      (all) => all.every((v) => v !== null),
      { timeoutMs: 60_000, what: 'each run’s first workflow task' },
    );
    assert.deepEqual(recorded, [[SUBSCRIBER_PATCHES.v5], [SUBSCRIBER_PATCHES.v5], [SUBSCRIBER_PATCHES.v5]]);
    const report = await eventually(eras(queue), (r) => r.counts.v5 === 3, { timeoutMs: 30_000, what: 'three runs in era v5' });
    assert.deepEqual(report, { taskQueue: queue, counts: { v1: 0, v2: 0, v3: 0, v4: 0, v5: 3 }, mayGo: ['v1', 'v2', 'v3', 'v4'] });
  });

  it('classifies runs by the oldest era they were recorded in, and names only eras no open run needs', async () => {
    // Runs as older code recorded them: on a task queue no worker polls, with the TemporalChangeVersion those
    // versions wrote (a work-v2 or work-v3 run that moved to rules v3 has work-v4 too; era v1 had no work-v* id).
    const queue = `eras-${randomSuffix()}`;
    const recorded: (string[] | null)[] = [
      null,
      [SUBSCRIBER_PATCHES.resumeFromStoredState, SUBSCRIBER_PATCHES.outboundWebhooks],
      [SUBSCRIBER_PATCHES.v2],
      [SUBSCRIBER_PATCHES.v2, SUBSCRIBER_PATCHES.v4],
      [SUBSCRIBER_PATCHES.v3, SUBSCRIBER_PATCHES.v4],
      [SUBSCRIBER_PATCHES.v4],
      [SUBSCRIBER_PATCHES.v4],
      [SUBSCRIBER_PATCHES.v5],
    ];
    const handles = [];
    for (const [i, patches] of recorded.entries()) {
      handles.push(
        await h.temporal.client.workflow.start<BillingSubscriberWorkflow>(billingSubscriberContract.name, {
          taskQueue: queue,
          workflowId: `${queue}/${i}`,
          args: [{ scope: 'app:eras', subscriberId: `old-${i}` }],
          typedSearchAttributes: patches ? [{ key: CHANGE_VERSION, value: patches }] : [],
        }),
      );
    }
    try {
      const expected = { v1: 2, v2: 2, v3: 1, v4: 2, v5: 1 };
      const report = await eventually(eras(queue), (r) => JSON.stringify(r.counts) === JSON.stringify(expected), {
        timeoutMs: 30_000,
        what: `counts ${JSON.stringify(expected)}`,
      });
      assert.deepEqual(report.mayGo, []);

      // Once the era v1 runs are gone, v1's branches may go; v2 still has runs, so v3 waits for it too.
      await handles[0].terminate('era v1 run gone');
      await handles[1].terminate('era v1 run gone');
      const afterV1 = await eventually(eras(queue), (r) => r.counts.v1 === 0, { timeoutMs: 30_000, what: 'no era v1 run' });
      assert.deepEqual(afterV1.counts, { v1: 0, v2: 2, v3: 1, v4: 2, v5: 1 });
      assert.deepEqual(afterV1.mayGo, ['v1']);
      const human = spawnSync(process.execPath, [CLI, 'billing-patch-eras'], {
        env: cliEnv(h, { TEMPORAL_TASK_QUEUE: queue }),
        encoding: 'utf8',
      });
      assert.equal(human.status, 0, human.stderr);
      assert.match(human.stdout, /^ {2}v1 +0 +no open run needs it: its branches may go/m);
      assert.match(human.stdout, /^ {2}v2 +2 +still needed +\(work-v2\)/m);
      assert.match(human.stdout, /^ {2}v4 +2 +still needed +\(work-v4\)/m);
      assert.match(human.stdout, /^ {2}v5 +1 +current/m);
    } finally {
      for (const handle of handles) await handle.terminate('test over').catch(() => undefined);
    }
  });
});
