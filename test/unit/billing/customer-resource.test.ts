import assert from 'node:assert/strict';
import { canonicalView } from '../../../src/billing/canonical-view';
import { customerResource } from '../../../src/billing/customer-resource';
import { isoDay, isoTime } from '../../../src/billing/iso-time';
import { applyEvent } from '../../../src/billing/subscriber-state';
import { ANON, DAY, T0, USER, monthly, subEvent } from './fixtures';
import { deliver } from './helpers';

describe('customer resource (GET /v1/billing/customers/{appUserId})', () => {
  it('has the documented shape, with ISO times and USD rounded to the cent', () => {
    const P0 = monthly(0);
    const { state } = deliver(
      [
        subEvent('INITIAL_PURCHASE', 'ip', T0, P0),
        subEvent('BILLING_ISSUE', 'b1', T0 + DAY, P0),
        subEvent('CANCELLATION', 'c1', T0 + 2 * DAY, P0, { cancel_reason: 'UNSUBSCRIBE' }),
      ],
      T0 + 2 * DAY,
    );
    assert.deepEqual(customerResource(canonicalView(state), `billing/app:acme/${ANON}`), {
      scope: 'app:acme',
      id: ANON,
      aliases: [USER],
      mergedInto: null,
      status: 'cancelled',
      entitlements: [{ id: 'pro', productId: 'com.acme.pro.monthly', expiresAt: '2026-02-04T10:00:00.000Z' }],
      flags: [{ type: 'billing_issue', since: '2026-01-06T10:00:00.000Z', eventId: 'b1' }],
      scheduledDowngrade: { at: '2026-02-04T10:00:00.000Z', reason: 'CANCELLATION' },
      mrrContribution: 9.99,
      lastEvent: { id: 'c1', type: 'CANCELLATION', at: '2026-01-07T10:00:00.000Z' },
      workflowId: `billing/app:acme/${ANON}`,
    });
  });

  it('never throws on a timestamp outside the range of Date', () => {
    const { state } = deliver([{ id: 'far', type: 'TEST', event_timestamp_ms: 9e15 }], T0);
    assert.equal(customerResource(canonicalView(state), 'billing/app:acme/far').lastEvent?.at, '9000000000000000');
    assert.equal(isoTime(0), '1970-01-01T00:00:00.000Z');
    assert.equal(isoDay(T0), '2026-01-05');
    assert.equal(isoDay(Number.NaN), 'NaN');
    assert.equal(applyEvent(state, { id: 'x', type: 'TEST' }, T0).state.lastEvent?.id, 'far');
  });
});
