/**
 * The relay under one app's burst: its waiting room serves billing scopes in turn, so another app's event leaves
 * with the next free call instead of after the whole burst, and each call asks Temporal for the scope's fairness
 * key. Temporal is a stand-in that records each call and answers when told.
 */
import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { EventForwarder, RELAY_CALLS_IN_FLIGHT } from '../../../src/billing-intake/event-forwarder';
import { TenantRoundRobin } from '../../../src/billing-intake/tenant-round-robin';
import { createLogger } from '../../../src/logging/logger';
import type { Repositories } from '../../../src/store/repositories';
import type { WebhookEventRecord } from '../../../src/store/webhook-events';
import type { BillingScope } from '../../../src/billing/subscriber-id';
import { providerEvent } from '../../support/provider-events';
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

const eventOf = (scope: BillingScope, subscriber: string, n: number): WebhookEventRecord => {
  const event = providerEvent('INITIAL_PURCHASE', subscriber, { at: Date.UTC(2026, 0, 1) + n, id: `${subscriber}-${n}` });
  return {
    _id: `${scope}|${event.id}`,
    scope,
    eventId: event.id,
    type: event.type,
    workflowId: `billing/${scope}/${subscriber}`,
    subscriberId: subscriber,
    eventJson: JSON.stringify(event),
    receivedAt: new Date(Date.UTC(2026, 0, 1) + n),
    acceptedBy: 'test',
    ignored: false,
    deliveries: 1,
  };
};

const tick = () => new Promise((r) => setImmediate(r));

describe('billing intake: one app’s burst does not hold up another app’s events in the relay', () => {
  it("app B's event takes the next free call, ahead of app A's 500 waiting subscribers", async () => {
    const t = standIn();
    const repos = {} as Pick<Repositories, 'webhookEvents' | 'relayCheckpoints' | 'deadLetters'>;
    const relay = new EventForwarder(repos, { get: async () => t.client }, 'q', createLogger(testConfig({ LOG_LEVEL: 'silent' }), 'test'));
    for (let i = 0; i < 500; i++) relay.forwardSoon(eventOf('app:a', `a${i}`, i));
    relay.forwardSoon(eventOf('app:b', 'b0', 1_000));
    await tick();
    assert.equal(t.calls.length, RELAY_CALLS_IN_FLIGHT);
    assert.ok(
      t.calls.every((c) => c.workflowId.startsWith('billing/app:a/')),
      'the burst came first and takes every call',
    );
    t.releaseFirst();
    await tick();
    await tick();
    const next = t.calls[RELAY_CALLS_IN_FLIGHT];
    assert.equal(next?.workflowId, 'billing/app:b/b0', 'the first call freed goes to app B, not to the 9th of app A');
    assert.equal(next?.fairnessKey, 'app:b', "the start asks Temporal's task queue for app B's turn too");
    assert.equal(t.calls[0]?.fairnessKey, 'app:a');
    // Then app A goes on, oldest subscriber first.
    t.releaseFirst();
    await tick();
    await tick();
    assert.equal(t.calls[RELAY_CALLS_IN_FLIGHT + 1]?.workflowId, `billing/app:a/a${RELAY_CALLS_IN_FLIGHT}`);
  });
});

describe('TenantRoundRobin (the relay’s waiting room)', () => {
  const one = <T>(list: T[]) => list.splice(0, 1);
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

  it('passes over a busy key, keeping its items for later and in order; null when only busy keys wait', () => {
    const q = new TenantRoundRobin<number>();
    q.push('a', 'k', 1);
    q.push('a', 'k', 2);
    q.push('b', 'm', 3);
    assert.deepEqual(
      q.take((k) => k === 'k', one),
      { key: 'm', items: [3] },
    );
    assert.equal(
      q.take(
        (k) => k === 'k',
        (l) => l.splice(0),
      ),
      null,
    );
    assert.deepEqual(
      q.take(
        () => false,
        (l) => l.splice(0),
      ),
      { key: 'k', items: [1, 2] },
    );
  });
});
