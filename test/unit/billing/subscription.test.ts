import assert from 'node:assert/strict';
import {
  NO_END_MS,
  joinSubscriptions,
  subscriptionFromEvent,
  subscriptionStatus,
  type Subscription,
} from '../../../src/billing/subscription';
import { DAY, OTX, T0, monthly, subEvent, transferEvent } from './fixtures';
import { deliver, seededRandom } from './helpers';

const P0 = monthly(0);
const P1 = monthly(1);
const facts = (event: Parameters<typeof subscriptionFromEvent>[0]): Subscription => {
  const result = subscriptionFromEvent(event);
  assert.ok(result, event.id);
  return result;
};

const samples: Subscription[] = [
  facts(subEvent('INITIAL_PURCHASE', 'ip', T0, P0)),
  facts(subEvent('RENEWAL', 'r1', T0 + 30 * DAY, P1)),
  facts(subEvent('BILLING_ISSUE', 'b1', T0 + 29 * DAY, P0, { price: 0 })),
  facts(subEvent('BILLING_ISSUE', 'b2', T0 + 31 * DAY, P1, { price: 0 })),
  facts(subEvent('CANCELLATION', 'c1', T0 + 10 * DAY, P0, { cancel_reason: 'UNSUBSCRIBE' })),
  facts(subEvent('UNCANCELLATION', 'u1', T0 + 12 * DAY, P0)),
  facts(subEvent('CANCELLATION', 'c2', T0 + 40 * DAY, P1, { cancel_reason: 'UNSUBSCRIBE' })),
  facts(subEvent('EXPIRATION', 'x1', T0 + 60 * DAY, P1, { expiration_reason: 'UNSUBSCRIBE', price: 0 })),
  facts(subEvent('CANCELLATION', 'rf', T0 + 45 * DAY, P1, { cancel_reason: 'CUSTOMER_SUPPORT', price: -9.99 })),
  facts(subEvent('RENEWAL', 'r2', T0 + 70 * DAY, { purchasedAt: T0 + 70 * DAY, expiresAt: T0 + 100 * DAY })),
];

describe('subscription facts', () => {
  it('are only made of subscription events that name a subscription', () => {
    assert.equal(subscriptionFromEvent(subEvent('PRODUCT_CHANGE', 'pc', T0, P0)), null);
    assert.equal(subscriptionFromEvent(transferEvent('t', T0, ['a'], ['b'])), null);
    assert.equal(subscriptionFromEvent({ id: 'x', type: 'RENEWAL' }), null);
    assert.equal(facts(subEvent('RENEWAL', 'r', T0, P0, { original_transaction_id: null })).key, 'product:com.acme.pro.monthly');
    assert.equal(facts(subEvent('RENEWAL', 'r', T0, P0)).key, OTX);
  });

  it('join commutatively, associatively and idempotently (random triples of the samples)', () => {
    const random = seededRandom(42);
    const pick = () => samples[Math.floor(random() * samples.length)];
    for (let i = 0; i < 500; i++) {
      const [a, b, c] = [pick(), pick(), pick()];
      assert.deepEqual(joinSubscriptions(a, b), joinSubscriptions(b, a));
      assert.deepEqual(joinSubscriptions(joinSubscriptions(a, b), c), joinSubscriptions(a, joinSubscriptions(b, c)));
      const ab = joinSubscriptions(a, b);
      assert.deepEqual(joinSubscriptions(ab, a), ab);
    }
  });

  it('keep only the cancellations that can still matter', () => {
    const cancellation = subEvent('CANCELLATION', 'c1', T0 + 10 * DAY, P0, { cancel_reason: 'UNSUBSCRIBE' });
    const expiration = subEvent('EXPIRATION', 'x1', T0 + 30 * DAY, P0, { expiration_reason: 'UNSUBSCRIBE' });
    const { state } = deliver([subEvent('INITIAL_PURCHASE', 'ip', T0, P0), cancellation, expiration], T0 + 11 * DAY);
    assert.deepEqual(
      state.subscriptions[0].endings.map((e) => e.id),
      ['x1'],
      'the newer ending of the same period suffices',
    );
    const renewed = deliver([subEvent('RENEWAL', 'r1', T0 + 30 * DAY, P1), cancellation], T0 + 11 * DAY).state;
    assert.deepEqual(renewed.subscriptions[0].endings, [], 'a superseded ending is dropped');
  });

  it('have a status at a point in time', () => {
    const purchase = facts(subEvent('INITIAL_PURCHASE', 'ip', T0, P0));
    assert.equal(subscriptionStatus(purchase, T0), 'active');
    assert.equal(subscriptionStatus(purchase, (P0.expiresAt as number) - 1), 'active');
    assert.equal(subscriptionStatus(purchase, P0.expiresAt as number), 'expired');
    const lifetime = facts(subEvent('INITIAL_PURCHASE', 'ip', T0, { purchasedAt: T0, expiresAt: null }));
    assert.equal(lifetime.accessUntilMs, NO_END_MS);
    assert.equal(subscriptionStatus(lifetime, T0 + 10_000 * DAY), 'active');
    const issueOnly = facts(subEvent('BILLING_ISSUE', 'b', T0, P0));
    assert.equal(subscriptionStatus(issueOnly, T0), 'expired', 'a billing issue grants nothing');
  });

  it('do not let a cancellation end a purchase that has no end', () => {
    const lifetime = facts(subEvent('INITIAL_PURCHASE', 'ip', T0, { purchasedAt: T0, expiresAt: null }));
    const cancellation = facts(
      subEvent('CANCELLATION', 'c', T0 + DAY, { purchasedAt: T0, expiresAt: null }, { cancel_reason: 'UNSUBSCRIBE' }),
    );
    assert.equal(subscriptionStatus(joinSubscriptions(lifetime, cancellation), T0 + 2 * DAY), 'active');
    const refund = facts(
      subEvent('CANCELLATION', 'rf', T0 + DAY, { purchasedAt: T0, expiresAt: null }, { cancel_reason: 'CUSTOMER_SUPPORT' }),
    );
    assert.equal(subscriptionStatus(joinSubscriptions(lifetime, refund), T0 + 2 * DAY), 'refunded');
  });
});
