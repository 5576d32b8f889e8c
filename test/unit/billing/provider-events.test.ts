import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020';
import {
  ENVELOPE_SCHEMA,
  EFFECT_EVENT_TYPES,
  KNOWN_EVENT_TYPES,
  hasEffect,
  isKnownEventType,
  isRefund,
} from '../../../src/billing/provider-events';
import { ANON, DAY, T0, aliasEvent, envelope, monthly, subEvent, transferEvent } from './fixtures';

describe('billing provider events', () => {
  for (const strict of [false, true]) {
    describe(`ENVELOPE_SCHEMA under Ajv2020 (strict: ${strict})`, () => {
      const validate = new Ajv2020({ strict, allErrors: true }).compile(ENVELOPE_SCHEMA);

      it('accepts every documented shape, unknown members and unknown types', () => {
        const bodies: unknown[] = [
          envelope(subEvent('INITIAL_PURCHASE', 'e1', T0, monthly(0))),
          envelope(subEvent('NON_RENEWING_PURCHASE', 'e2', T0, { purchasedAt: T0, expiresAt: null })),
          envelope(subEvent('CANCELLATION', 'e3', T0, monthly(0), { cancel_reason: 'CUSTOMER_SUPPORT', price: -9.99 })),
          envelope(subEvent('PRODUCT_CHANGE', 'e4', T0, monthly(0), { new_product_id: 'com.acme.pro.yearly', entitlement_ids: null })),
          envelope(subEvent('BILLING_ISSUE', 'e5', T0, monthly(0), { grace_period_expiration_at_ms: T0 + 16 * DAY })),
          envelope(transferEvent('e6', T0, [ANON], ['user_9'])),
          envelope(aliasEvent('e7', T0, ANON, [ANON, 'user_1234'])),
          { api_version: '1.0', event: { id: 'e8', type: 'SOMETHING_NEW', brand_new_member: { nested: [1, 2] } }, extra: true },
          { event: { id: 'e9', type: 'TEST', app_user_id: null, event_timestamp_ms: null, aliases: null, price: null } },
        ];
        for (const body of bodies) assert.equal(validate(body), true, JSON.stringify(validate.errors));
      });

      it('requires event.id and event.type, as non-empty strings', () => {
        for (const event of [
          { type: 'RENEWAL' },
          { id: 'e1' },
          { id: '', type: 'RENEWAL' },
          { id: 'e1', type: '' },
          { id: 7, type: 'RENEWAL' },
        ]) {
          assert.equal(validate({ api_version: '1.0', event }), false, JSON.stringify(event));
        }
        assert.equal(validate({ api_version: '1.0' }), false);
        assert.equal(validate([]), false);
      });

      it('checks the type of each member the service reads', () => {
        const bad: Record<string, unknown>[] = [
          { aliases: 'user_1' },
          { aliases: [1] },
          { entitlement_ids: [null] },
          { expiration_at_ms: '1700000000000' },
          { event_timestamp_ms: true },
          { price: '9.99' },
          { is_family_share: 'no' },
          { transferred_to: [{ id: 'x' }] },
          { original_app_user_id: 12 },
          { subscriber_attributes: 'x' },
        ];
        for (const member of bad) {
          assert.equal(validate({ event: { id: 'e1', type: 'RENEWAL', ...member } }), false, JSON.stringify(member));
        }
      });
    });
  }

  it('knows every documented type and accepts others as unknown', () => {
    assert.equal(KNOWN_EVENT_TYPES.length, 18);
    for (const type of ['TEST', 'SUBSCRIBER_ALIAS', 'EXPERIMENT_ENROLLMENT', 'VIRTUAL_CURRENCY_TRANSACTION']) {
      assert.equal(isKnownEventType(type), true, type);
    }
    assert.equal(isKnownEventType('SOMETHING_NEW'), false);
    assert.equal(isKnownEventType('renewal'), false);
  });

  it('gives an effect exactly to the types of the effects table, the store-initiated grants from the v2 rules, pauses from v3', () => {
    assert.deepEqual([...EFFECT_EVENT_TYPES].sort(), [
      'BILLING_ISSUE',
      'CANCELLATION',
      'EXPIRATION',
      'INITIAL_PURCHASE',
      'NON_RENEWING_PURCHASE',
      'REFUND_REVERSED',
      'RENEWAL',
      'SUBSCRIBER_ALIAS',
      'SUBSCRIPTION_EXTENDED',
      'SUBSCRIPTION_PAUSED',
      'TEMPORARY_ENTITLEMENT_GRANT',
      'TRANSFER',
      'UNCANCELLATION',
    ]);
    for (const type of KNOWN_EVENT_TYPES) assert.equal(hasEffect(type), (EFFECT_EVENT_TYPES as readonly string[]).includes(type), type);
    for (const type of ['PRODUCT_CHANGE', 'INVOICE_ISSUANCE', 'EXPERIMENT_ENROLLMENT', 'TEST', 'UNKNOWN_TYPE'])
      assert.equal(hasEffect(type), false, type);
    assert.equal(hasEffect('SUBSCRIPTION_PAUSED', 'v2'), false, 'runs recorded before v3 keep recording pauses only');
    for (const type of ['NON_RENEWING_PURCHASE', 'SUBSCRIPTION_EXTENDED', 'TEMPORARY_ENTITLEMENT_GRANT', 'REFUND_REVERSED']) {
      assert.equal(hasEffect(type, 'v1'), false, type);
    }
    assert.equal(hasEffect('RENEWAL', 'v1'), true);
  });

  it('recognises a refund by CUSTOMER_SUPPORT or a negative price, on cancellations and expirations only', () => {
    assert.equal(isRefund(subEvent('CANCELLATION', 'r1', T0, monthly(0), { cancel_reason: 'CUSTOMER_SUPPORT' })), true);
    assert.equal(isRefund(subEvent('CANCELLATION', 'r2', T0, monthly(0), { cancel_reason: 'UNKNOWN', price: -9.99 })), true);
    assert.equal(isRefund(subEvent('EXPIRATION', 'r3', T0, monthly(0), { expiration_reason: 'CUSTOMER_SUPPORT' })), true);
    assert.equal(isRefund(subEvent('CANCELLATION', 'r4', T0, monthly(0), { cancel_reason: 'UNSUBSCRIBE' })), false);
    assert.equal(isRefund(subEvent('CANCELLATION', 'r5', T0, monthly(0), { cancel_reason: 'UNSUBSCRIBE', price: 0 })), false);
    assert.equal(isRefund(subEvent('RENEWAL', 'r6', T0, monthly(0), { price: -1 })), false);
  });
});
