/**
 * Skills and billing on their own task queues (docs/operations.md, "Skills and billing apart"), with real worker processes:
 * a process with WORKER_ROLES=skills finishes skill invocations and leaves billing events queued (and /readyz says
 * so); one with WORKER_ROLES=billing applies them. Each answers its own liveness on WORKER_HEALTH_ADDRESS. And the
 * upgrade path: an invocation an older API started on the old shared queue (the billing queue's name) is finished
 * by a billing worker.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../scripts/stack/servers';
import { billingClient } from '../support/billing-client';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { providerEvent } from '../support/provider-events';
import { randomSuffix } from '../support/config';
import { adminToken, projectToken } from '../support/tokens';
import { invoke, loadDemo, PROJECT, settle } from './skills-helpers';

const CASE = { fromVersion: '1.2.1', toVersion: '2.0.0' };

async function live(address: string) {
  return eventually(
    async () => {
      const res = await fetch(`http://${address}/healthz`);
      return { status: res.status, body: (await res.json()) as { status: string; roles: Record<string, string> } };
    },
    (r) => r.status === 200,
    { what: `the worker's liveness on ${address}`, timeoutMs: 60_000 },
  );
}

describe('worker roles: skills and billing served by separate workers', () => {
  let h: Harness;
  const children: ChildProcess[] = [];
  const member = projectToken([PROJECT]);
  before(async () => {
    h = await startHarness();
    await loadDemo(h);
  });
  after(async () => {
    for (const c of children) c.kill('SIGTERM');
    await h?.close();
  });

  it('a skills worker finishes invocations while billing waits in its own queue, visibly, for a billing worker', async () => {
    const skillsHealth = `127.0.0.1:${await freePort()}`;
    children.push(await h.spawnWorkerProcess({ WORKER_ROLES: 'skills', WORKER_HEALTH_ADDRESS: skillsHealth }));
    assert.deepEqual((await live(skillsHealth)).body, { status: 'live', roles: { skills: 'RUNNING' } });

    const started = await invoke(h, member, 'release_notes_composer', CASE);
    assert.equal(started.status, 202, started.text);
    assert.equal((await settle(h, member, started.body.id)).status, 'completed');

    const auth = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug: 'roles', name: 'Roles' } })).body
      .authorization as string;
    const billing = billingClient(h, 'roles', () => auth);
    await billing.deliver(providerEvent('INITIAL_PURCHASE', 'u1', { at: Date.now(), id: 'roles-1' }));
    const ready = await eventually(
      () => h.request('GET', '/readyz'),
      (r) => r.status === 200 && (r.body.backlog.queues.billing?.tasks ?? 0) >= 1,
      { what: "the billing task waiting in its queue, in /readyz's backlog", timeoutMs: 30_000, intervalMs: 500 },
    );
    assert.equal(ready.body.backlog.queues.skills.tasks, 0, 'the skills queue is served');

    const billingHealth = `127.0.0.1:${await freePort()}`;
    children.push(await h.spawnWorkerProcess({ WORKER_ROLES: 'billing', WORKER_HEALTH_ADDRESS: billingHealth }));
    assert.deepEqual((await live(billingHealth)).body.roles, { billing: 'RUNNING' });
    await billing.settled('u1', 1);
    const metrics = (await h.request('GET', '/metrics')).text;
    assert.match(metrics, /temporal_task_queue_backlog_tasks\{queue="billing"\} \d/);
    assert.match(metrics, /temporal_task_queue_backlog_age_seconds\{queue="skills"\} [\d.]+/);
  });

  it('an invocation started on the old shared queue is finished by a billing worker', async () => {
    // An API from before the split started skills on the one queue, which is now the billing queue's name.
    const shared = `test-shared-${randomSuffix()}`;
    const old = await startHarness({ TEMPORAL_TASK_QUEUE: shared, TEMPORAL_SKILLS_TASK_QUEUE: shared });
    try {
      await loadDemo(old);
      children.push(await old.spawnWorkerProcess({ WORKER_ROLES: 'billing', TEMPORAL_SKILLS_TASK_QUEUE: `${shared}-skills` }));
      const started = await invoke(old, member, 'release_notes_composer', CASE);
      assert.equal(started.status, 202, started.text);
      assert.equal((await settle(old, member, started.body.id, undefined, 60_000)).status, 'completed');
    } finally {
      await old.close();
    }
  });
});
