/**
 * The dev stack's standby worker (src/temporal/worker-standby.ts, scripts/stack/supervisor.ts) with real worker
 * processes: the standby creates its workers but polls nothing until the running worker is killed; then it serves at
 * once (its liveness answers, it polls the skills queue under its own identity, an invocation completes), and a new
 * standby is started for the next exit.
 */
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { freePort } from '../../scripts/stack/servers';
import { Supervised } from '../../scripts/stack/supervisor';
import { workflowBundlePath } from '../support/bundle';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { projectToken } from '../support/tokens';
import { invoke, loadDemo, PROJECT, settle } from './skills-helpers';

const CASE = { fromVersion: '1.2.1', toVersion: '2.0.0' };

describe('worker standby: a killed worker is replaced by one already started', () => {
  let h: Harness;
  let worker: Supervised | null = null;
  const said: string[] = [];
  before(async () => {
    h = await startHarness();
    await loadDemo(h);
  });
  after(async () => {
    await worker?.stop(5_000);
    await h?.close();
  });

  /** The identities polling the skills queue for workflow tasks (the SDK's default identity is pid@host). */
  const pollers = async () => {
    const res = await h.temporal.client.workflowService.describeTaskQueue({
      namespace: h.config.temporal.namespace,
      taskQueue: { name: h.config.temporal.skillsTaskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    });
    return (res.pollers ?? []).map((p) => p.identity ?? '');
  };
  const identity = (pid: number) => `${pid}@${hostname()}`;

  it('the standby polls nothing until the worker is killed, then serves at once, and a new standby follows', async () => {
    const health = `127.0.0.1:${await freePort()}`;
    worker = new Supervised({
      name: 'worker',
      command: process.execPath,
      args: [join(__dirname, '..', '..', 'src', 'worker.js')],
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        TEMPORAL_ADDRESS: h.config.temporal.address,
        TEMPORAL_TASK_QUEUE: h.config.temporal.taskQueue,
        TEMPORAL_SKILLS_TASK_QUEUE: h.config.temporal.skillsTaskQueue,
        MONGODB_URI: h.config.mongo.uri,
        MONGODB_DB: h.config.mongo.dbName,
        JWT_SECRET: h.config.jwt.secret ?? '',
        WORKFLOW_BUNDLE_PATH: await workflowBundlePath(),
        WORKER_ROLES: 'skills',
        WORKER_HEALTH_ADDRESS: health,
      },
      say: (m) => said.push(m),
      stdio: 'inherit',
      standby: { env: { WORKER_STANDBY: 'true' }, delayMs: 200 },
    });
    worker.start();
    const live = () =>
      fetch(`http://${health}/healthz`, { signal: AbortSignal.timeout(2_000) })
        .then((r) => r.status)
        .catch(() => 0);
    await eventually(live, (s) => s === 200, { what: 'the worker to be live', timeoutMs: 60_000 });
    const first = worker.pid!;
    await eventually(
      async () => worker!.standbyReady,
      (ready) => ready,
      { what: 'the standby to be ready', timeoutMs: 60_000 },
    );
    const standby = worker.standbyPid!;
    const polling = await eventually(pollers, (ids) => ids.includes(identity(first)), {
      what: 'the running worker polling',
      timeoutMs: 30_000,
    });
    assert.ok(!polling.includes(identity(standby)), `the standby polls nothing yet: ${polling.join(', ')}`);

    const next = worker.nextStart();
    process.kill(first, 'SIGKILL');
    const promoted = await next;
    assert.equal(promoted.pid, standby);
    await eventually(live, (s) => s === 200, { what: 'the standby serving', timeoutMs: 10_000 });
    await eventually(pollers, (ids) => ids.includes(identity(standby)), {
      what: 'the standby polling the skills queue',
      timeoutMs: 10_000,
    });
    const member = projectToken([PROJECT]);
    const started = await invoke(h, member, 'release_notes_composer', CASE);
    assert.equal(started.status, 202, started.text);
    assert.equal((await settle(h, member, started.body.id)).status, 'completed');
    assert.ok(
      said.some((m) => m.startsWith('worker exited (SIGKILL)') && m.includes(`its standby (pid ${standby}) serves instead (restart 1)`)),
      said.join('\n'),
    );

    const second = await eventually(
      async () => worker!.standbyPid,
      (pid) => pid !== undefined,
      { what: 'a new standby', timeoutMs: 30_000 },
    );
    assert.notEqual(second, standby);
    assert.equal(worker.restartCount, 1);
  });
});
