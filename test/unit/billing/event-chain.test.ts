import assert from 'node:assert/strict';
import { nextInChain, type ChainProduct, type ChainState } from '../../../src/billing/event-chain';
import { ENVELOPE_SCHEMA } from '../../../src/billing/provider-events';
import { check } from '../../../src/contracts/validation';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);
const MONTHLY: ChainProduct = {
  productId: 'pro_monthly',
  price: 9.99,
  currency: 'USD',
  store: 'APP_STORE',
  environment: 'PRODUCTION',
  period: 'P1M',
  entitlementIds: ['pro'],
};

function ids() {
  let n = 0;
  return () => `id${++n}`;
}

describe('cli trigger: one subscriber’s story as provider events', () => {
  it('a renewal renews the earlier purchase: same original transaction, the next period starting where the last ended', () => {
    const newId = ids();
    const bought = nextInChain('INITIAL_PURCHASE', 'u1', null, MONTHLY, { nowMs: T0, newId });
    const [purchase] = bought.events;
    assert.equal(bought.events.length, 1);
    assert.equal(purchase!.type, 'INITIAL_PURCHASE');
    assert.equal(purchase!.purchased_at_ms, T0);
    assert.equal(purchase!.expiration_at_ms, T0 + 30 * DAY);
    assert.equal(purchase!.environment, 'PRODUCTION');
    assert.equal(purchase!.price, 9.99);

    const renewed = nextInChain('RENEWAL', 'u1', bought.state, MONTHLY, { nowMs: T0 + 29 * DAY, newId });
    const [renewal] = renewed.events;
    assert.equal(renewal!.original_transaction_id, purchase!.original_transaction_id);
    assert.notEqual(renewal!.transaction_id, purchase!.transaction_id);
    assert.equal(renewal!.purchased_at_ms, purchase!.expiration_at_ms, 'periods follow each other');
    assert.equal(renewal!.expiration_at_ms, T0 + 60 * DAY);
    assert.equal(renewal!.renewal_number, 2);
    assert.equal(renewal!.event_timestamp_ms, T0 + 30 * DAY, 'dated when its period starts, as the provider sends it');
    assert.equal(renewal!.is_trial_conversion, false);
    assert.notEqual(renewal!.id, purchase!.id);
  });

  it('an expiration and a cancellation speak about the current period; a refund gives the money back now', () => {
    const newId = ids();
    const bought = nextInChain('INITIAL_PURCHASE', 'u1', null, MONTHLY, { nowMs: T0, newId });
    const renewed = nextInChain('RENEWAL', 'u1', bought.state, MONTHLY, { nowMs: T0 + DAY, newId });
    const [expiration] = nextInChain('EXPIRATION', 'u1', renewed.state, MONTHLY, { nowMs: T0 + 2 * DAY, newId }).events;
    const [renewal] = renewed.events;
    for (const key of ['original_transaction_id', 'transaction_id', 'purchased_at_ms', 'expiration_at_ms', 'product_id'] as const)
      assert.equal(expiration![key], renewal![key], key);
    assert.equal(expiration!.expiration_reason, 'UNSUBSCRIBE');
    assert.equal(expiration!.event_timestamp_ms, renewal!.expiration_at_ms, 'dated when the period ends');
    const [cancel] = nextInChain('CANCELLATION', 'u1', renewed.state, MONTHLY, { nowMs: T0 + 2 * DAY, newId }).events;
    assert.equal(cancel!.cancel_reason, 'UNSUBSCRIBE');
    assert.equal(cancel!.expiration_at_ms, renewal!.expiration_at_ms);
    const [refund] = nextInChain('CANCELLATION', 'u1', renewed.state, MONTHLY, { nowMs: T0 + 2 * DAY, newId, refund: true }).events;
    assert.equal(refund!.cancel_reason, 'CUSTOMER_SUPPORT');
    assert.equal(refund!.price, -9.99);
    // Never dated before the renewal that opened the period it speaks of (a refund older than it would be history).
    assert.equal(refund!.event_timestamp_ms, renewal!.event_timestamp_ms);
  });

  it('with no story yet, a renewal or an expiration is preceded by the purchase it speaks about', () => {
    const step = nextInChain('EXPIRATION', 'u2', null, MONTHLY, { nowMs: T0, newId: ids() });
    assert.deepEqual(
      step.events.map((e) => e.type),
      ['INITIAL_PURCHASE', 'EXPIRATION'],
    );
    assert.equal(step.events[0]!.original_transaction_id, step.events[1]!.original_transaction_id);
    assert.equal(step.events[1]!.expiration_at_ms, T0 + 30 * DAY);
  });

  it('a trial is free for 7 days, and its renewal is the conversion at the product’s price', () => {
    const newId = ids();
    const trial = nextInChain('INITIAL_PURCHASE', 'u3', null, MONTHLY, { nowMs: T0, newId, trial: true });
    assert.equal(trial.events[0]!.period_type, 'TRIAL');
    assert.equal(trial.events[0]!.price, 0);
    assert.equal(trial.events[0]!.expiration_at_ms, T0 + 7 * DAY);
    const converted = nextInChain('RENEWAL', 'u3', trial.state, MONTHLY, { nowMs: T0 + 7 * DAY, newId });
    assert.equal(converted.events[0]!.is_trial_conversion, true);
    assert.equal(converted.events[0]!.period_type, 'NORMAL');
    assert.equal(converted.events[0]!.price, 9.99);
    assert.equal(converted.events[0]!.purchased_at_ms, T0 + 7 * DAY);
  });

  it('fields are overridable; a renewal after an expiration starts when it is sent', () => {
    const newId = ids();
    const yearly = { ...MONTHLY, productId: 'pro_yearly', price: 119.99, currency: 'EUR', store: 'PLAY_STORE', period: 'P1Y' as const };
    const bought = nextInChain('INITIAL_PURCHASE', 'u4', null, yearly, { nowMs: T0, newId });
    const e = bought.events[0]!;
    assert.deepEqual(
      [e.product_id, e.price, e.currency, e.store, e.expiration_at_ms],
      ['pro_yearly', 119.99, 'EUR', 'PLAY_STORE', T0 + 365 * DAY],
    );
    const expired = nextInChain('EXPIRATION', 'u4', bought.state, yearly, { nowMs: T0 + DAY, newId }).state as ChainState;
    const back = nextInChain('RENEWAL', 'u4', expired, yearly, { nowMs: T0 + 400 * DAY, newId, overrides: { price: 129.99 } });
    assert.equal(back.events[0]!.purchased_at_ms, T0 + 400 * DAY);
    assert.equal(back.events[0]!.price, 129.99);
  });

  it('every event it builds is a well-formed provider envelope; other types are the provider samples', () => {
    const newId = ids();
    let state: ChainState | null = null;
    for (const type of [
      'INITIAL_PURCHASE',
      'BILLING_ISSUE',
      'RENEWAL',
      'PRODUCT_CHANGE',
      'CANCELLATION',
      'UNCANCELLATION',
      'EXPIRATION',
      'TRANSFER',
      'TEST',
    ]) {
      const step = nextInChain(type, 'u5', state, MONTHLY, { nowMs: T0, newId });
      for (const event of step.events) assert.deepEqual(check(ENVELOPE_SCHEMA, { api_version: '1.0', event }), [], type);
      state = step.state;
    }
  });
});
