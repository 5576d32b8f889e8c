import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config/config';
import { workerTuning } from '../../../src/worker/worker';

const base = { TEMPORAL_ADDRESS: '127.0.0.1:7233', MONGODB_URI: 'mongodb://127.0.0.1:27017', JWT_SECRET: 'x'.repeat(40) };

describe('worker tuning (WORKER_* and API_RUNS_WORKER)', () => {
  it('defaults for one worker beside the dev server on a small machine, mapped onto the SDK options', () => {
    const c = loadConfig(base);
    assert.equal(c.worker.inApi, false);
    assert.deepEqual(workerTuning(c.worker), {
      maxCachedWorkflows: 500,
      maxConcurrentWorkflowTaskExecutions: 8,
      maxConcurrentActivityTaskExecutions: 100,
      maxConcurrentLocalActivityExecutions: 100,
      workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: 4 },
      activityTaskPollerBehavior: { type: 'simple-maximum', maximum: 10 },
      stickyQueueScheduleToStartTimeout: 5_000,
      maxEagerActivityReservationsPerWorkflowTask: 3,
      shutdownGraceTime: 10_000,
      shutdownForceTime: 30_000,
    });
  });

  it('takes every knob from the environment', () => {
    const c = loadConfig({
      ...base,
      WORKER_WORKFLOW_TASK_POLLERS: '8',
      WORKER_ACTIVITY_TASK_POLLERS: '3',
      WORKER_STICKY_QUEUE_TIMEOUT_MS: '2000',
      WORKER_EAGER_ACTIVITIES: '0',
      WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES: '20',
      WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: '6',
      WORKER_SHUTDOWN_GRACE_MS: '0',
      WORKER_SHUTDOWN_FORCE_MS: '5000',
      API_RUNS_WORKER: 'true',
    });
    assert.equal(c.worker.inApi, true);
    assert.deepEqual(
      { ...workerTuning(c.worker), maxCachedWorkflows: undefined, maxConcurrentActivityTaskExecutions: undefined },
      {
        workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: 8 },
        activityTaskPollerBehavior: { type: 'simple-maximum', maximum: 3 },
        stickyQueueScheduleToStartTimeout: 2_000,
        maxEagerActivityReservationsPerWorkflowTask: 0,
        maxConcurrentLocalActivityExecutions: 20,
        maxConcurrentWorkflowTaskExecutions: 6,
        shutdownGraceTime: 0,
        shutdownForceTime: 5_000,
        maxCachedWorkflows: undefined,
        maxConcurrentActivityTaskExecutions: undefined,
      },
    );
  });

  it('refuses values the SDK or the server would reject, naming each', () => {
    assert.throws(
      () =>
        loadConfig({
          ...base,
          WORKER_WORKFLOW_TASK_POLLERS: '1',
          WORKER_ACTIVITY_TASK_POLLERS: '0',
          WORKER_STICKY_QUEUE_TIMEOUT_MS: '10',
          WORKER_EAGER_ACTIVITIES: '-1',
          API_RUNS_WORKER: 'yes',
        }),
      (err: Error) =>
        [
          'WORKER_WORKFLOW_TASK_POLLERS',
          'WORKER_ACTIVITY_TASK_POLLERS',
          'WORKER_STICKY_QUEUE_TIMEOUT_MS',
          'WORKER_EAGER_ACTIVITIES',
          'API_RUNS_WORKER must be true or false',
        ].every((name) => err.message.includes(name)),
    );
  });

  it('a shutdown force time must leave the grace period room (it is when the worker stops waiting)', () => {
    assert.throws(
      () => loadConfig({ ...base, WORKER_SHUTDOWN_GRACE_MS: '30000', WORKER_SHUTDOWN_FORCE_MS: '30000' }),
      (err: Error) => err.message.includes('WORKER_SHUTDOWN_FORCE_MS must be greater than WORKER_SHUTDOWN_GRACE_MS'),
    );
  });

  it('serves both task queues by default; WORKER_ROLES picks one, for deployments that run them apart', () => {
    const c = loadConfig(base);
    assert.deepEqual(c.worker.roles, ['skills', 'billing']);
    assert.equal(c.temporal.taskQueue, 'skills-billing', 'billing keeps the name the shared queue had');
    assert.equal(c.temporal.skillsTaskQueue, 'skills-billing-skills');
    assert.deepEqual(loadConfig({ ...base, WORKER_ROLES: 'billing' }).worker.roles, ['billing']);
    assert.deepEqual(loadConfig({ ...base, WORKER_ROLES: ' billing , skills ' }).worker.roles, ['skills', 'billing']);
    const named = loadConfig({ ...base, TEMPORAL_TASK_QUEUE: 'prod', TEMPORAL_SKILLS_TASK_QUEUE: 'prod-sk' });
    assert.deepEqual([named.temporal.taskQueue, named.temporal.skillsTaskQueue], ['prod', 'prod-sk']);
    assert.equal(loadConfig({ ...base, TEMPORAL_TASK_QUEUE: 'prod' }).temporal.skillsTaskQueue, 'prod-skills');
    assert.throws(
      () => loadConfig({ ...base, WORKER_ROLES: 'skills,payments' }),
      (err: Error) => err.message.includes('WORKER_ROLES must list one or more of skills, billing'),
    );
    assert.throws(
      () => loadConfig({ ...base, WORKER_HEALTH_ADDRESS: 'nine' }),
      (err: Error) => err.message.includes('WORKER_HEALTH_ADDRESS'),
    );
  });
});
