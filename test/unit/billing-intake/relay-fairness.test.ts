/**
 * The relay under one app's burst: one scope has at most its share of the calls in flight, its waiting room serves
 * billing scopes in turn, so another app's event leaves at once instead of after the whole burst, and each call asks
 * Temporal for the scope's fairness key. Temporal is a stand-in that records each call and answers when told.
 */
import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { EventForwarder } from '../../../src/billing-intake/event-forwarder';
import { RELAY_CALLS_IN_FLIGHT, RELAY_CALLS_PER_SCOPE } from '../../../src/billing-intake/relay-queue';
import { TenantRoundRobin } from '../../../src/billing-intake/tenant-round-robin';
import { createLogger } from '../../../src/logging/logger';
import type { Repositories } from '../../../src/store/repositories';
import type { BillingScope } from '../../../src/billing/subscriber-id';
import { inboxRecord } from './inbox-record';
import { testConfig } from '../../support/config';

function standIn() {
  const calls: { workflowId: string; fairnessKey: string | undefined }[] = [];
  const waiting: (() => void)[] = [];
  const client = {
    connection: { withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn() },
    workflow: {
      signalWithStart: (_type: string, options: { workflowId: string; priority?: { fairnessKey?: string } }) => {
        calls.push({ workflowId: options.workflowId, fairnessKey: options.priority?.fairnessKey });
        return new Promise<void>((resolve) => waiting.push(resolve));
      },
    },
  } as unknown as Client;
  return { client, calls, releaseFirst: () => waiting.shift()?.() };
}

const eventOf = (scope: BillingScope, subscriber: string, n: number) => inboxRecord(scope, subscriber, n, 'INITIAL_PURCHASE');

const tick = () => new Promise((r) => setImmediate(r));

describe('billing intake: one app’s burst does not hold up another app’s events in the relay', () => {
  const relayOver = (client: Client) =>
    new EventForwarder({
      repos: {} as Pick<Repositories, 'webhookEvents' | 'relayCheckpoints' | 'deadLetters'>,
      client: { get: async () => client },
      taskQueue: 'q',
      logger: createLogger(testConfig({ LOG_LEVEL: 'silent' }), 'test'),
    });

  it("one app's burst takes at most its share of the calls; app B's events leave at once, then in turn", async () => {
    const t = standIn();
    const relay = relayOver(t.client);
    for (let i = 0; i < 500; i++) relay.forwardSoon(eventOf('app:a', `a${i}`, i));
    await tick();
    assert.equal(t.calls.length, RELAY_CALLS_PER_SCOPE, "app A's burst has its share in flight, no more");
    assert.ok(RELAY_CALLS_PER_SCOPE < RELAY_CALLS_IN_FLIGHT);
    relay.forwardSoon(eventOf('app:b', 'b0', 1_000));
    relay.forwardSoon(eventOf('app:b', 'b1', 1_001));
    await tick();
    assert.deepEqual(
      t.calls.slice(RELAY_CALLS_PER_SCOPE).map((c) => c.workflowId),
      ['billing/app:b/b0', 'billing/app:b/b1'],
      "app B's events leave without waiting for any of app A's calls",
    );
    assert.equal(t.calls[RELAY_CALLS_PER_SCOPE]?.fairnessKey, 'app:b', "the start asks Temporal's task queue for app B's turn too");
    assert.equal(t.calls[0]?.fairnessKey, 'app:a');
    relay.forwardSoon(eventOf('app:b', 'b2', 1_002));
    await tick();
    assert.equal(t.calls.length, RELAY_CALLS_IN_FLIGHT, 'every call is taken now');
    // Calls freed from now on alternate: app A (served longest ago), then app B's next event, then app A again.
    const freed: string[] = [];
    for (let n = 0; n < 3; n++) {
      t.releaseFirst();
      await tick();
      await tick();
      freed.push(t.calls[RELAY_CALLS_IN_FLIGHT + n]!.workflowId);
    }
    assert.deepEqual(freed, [`billing/app:a/a${RELAY_CALLS_PER_SCOPE}`, 'billing/app:b/b2', `billing/app:a/a${RELAY_CALLS_PER_SCOPE + 1}`]);
  });
});

describe('TenantRoundRobin (the relay’s waiting room)', () => {
  const one = <T>(list: T[]) => list.splice(0, 1);
  const all = <T>(list: T[]) => list.splice(0);

  it('serves the tenant served longest ago and, within one, keys in the order their first item came', () => {
    const q = new TenantRoundRobin<string>();
    for (const [tenant, key] of [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
      ['b', 'b1'],
      ['c', 'c1'],
      ['a', 'a1'],
    ])
      q.push(tenant!, key!, `${key}`);
    const order: string[] = [];
    for (let next = q.take(() => false, one); next; next = q.take(() => false, one)) order.push(next.key);
    assert.deepEqual(order, ['a1', 'b1', 'c1', 'a1', 'a2', 'a3']);
    assert.equal(q.tenantCount, 0);
  });

  it('remembers a tenant served while its queue emptied: a newcomer goes first', () => {
    const q = new TenantRoundRobin<number>();
    q.push('a', 'a1', 1);
    assert.equal(q.take(() => false, one)?.key, 'a1');
    q.push('a', 'a2', 2);
    q.push('b', 'b1', 3);
    assert.equal(q.take(() => false, one)?.key, 'b1');
  });

  it('passes over busy keys and full tenants, keeping their items in order; null when nothing can go', () => {
    const q = new TenantRoundRobin<number>();
    q.push('a', 'k', 1);
    q.push('a', 'k', 2);
    q.push('b', 'm', 3);
    assert.deepEqual(
      q.take((k) => k === 'k', one),
      { key: 'm', tenant: 'b', items: [3] },
    );
    assert.equal(
      q.take((k) => k === 'k', all),
      null,
    );
    assert.equal(
      q.take(
        () => false,
        all,
        (tenant) => tenant === 'a',
      ),
      null,
      'a full tenant waits',
    );
    assert.deepEqual(
      q.take(() => false, all),
      { key: 'k', tenant: 'a', items: [1, 2] },
    );
  });
});
