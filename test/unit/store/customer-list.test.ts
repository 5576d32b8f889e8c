import assert from 'node:assert/strict';
import { canonicalView } from '../../../src/billing/canonical-view';
import { customerListKeys, customerListQuery, facetsOf } from '../../../src/store/customer-list';
import { subscriberKey } from '../../../src/store/subscribers';
import { DAY, T0, monthly, subEvent } from '../billing/fixtures';
import { deliver } from '../billing/helpers';

const key = (id: string) => subscriberKey('app:acme', id);

describe('customer list keys and queries (store/customer-list.ts)', () => {
  it('a record keeps the facets the list filters by, its MRR and its last event time', () => {
    const P0 = monthly(0);
    const { state } = deliver([subEvent('INITIAL_PURCHASE', 'ip', T0, P0), subEvent('BILLING_ISSUE', 'b1', T0 + DAY, P0)], T0 + DAY);
    assert.deepEqual(customerListKeys(canonicalView(state)), {
      facets: ['all', 'environment:PRODUCTION', 'flagged:true', 'product:com.acme.pro.monthly', 'status:active', 'store:APP_STORE'],
      aliasesLower: state.aliases.map((a) => a.toLowerCase()),
      mrrMicros: 9_990_000,
      lastEventAtMs: T0 + DAY,
    });
  });

  it('a trial in the sandbox says so; a store no filter can name is not indexed', () => {
    const trial = { purchasedAt: T0, expiresAt: T0 + 7 * DAY };
    const { state } = deliver(
      [subEvent('INITIAL_PURCHASE', 'ip', T0, trial, { period_type: 'TRIAL', price: 0, environment: 'SANDBOX', store: 'weird store' })],
      T0,
    );
    const keys = customerListKeys(canonicalView(state));
    assert.deepEqual(keys.facets, [
      'all',
      'environment:SANDBOX',
      'flagged:false',
      'product:com.acme.pro.monthly',
      'status:active',
      'trial',
    ]);
    assert.equal(keys.mrrMicros, 0);
  });

  it('a merged record is never listed: no facet', () => {
    const { state } = deliver([subEvent('INITIAL_PURCHASE', 'ip', T0, monthly(0))], T0);
    assert.deepEqual(customerListKeys({ ...canonicalView(state), mergedInto: 'other' }).facets, []);
  });

  it('a refunded subscription and every id in lower case are kept for the filter and the search', () => {
    const P0 = monthly(0);
    const { state } = deliver(
      [
        subEvent('INITIAL_PURCHASE', 'ip', T0, P0),
        subEvent('CANCELLATION', 'rf', T0 + DAY, P0, { cancel_reason: 'CUSTOMER_SUPPORT', price: -9.99 }),
      ],
      T0 + DAY,
    );
    const keys = customerListKeys(canonicalView(state));
    assert.ok(keys.facets.includes('refunded'), keys.facets.join());
    assert.ok(
      state.aliases.some((a) => a !== a.toLowerCase()),
      'the fixture has an id with capitals',
    );
    assert.deepEqual(
      keys.aliasesLower,
      state.aliases.map((a) => a.toLowerCase()),
    );
    assert.deepEqual(facetsOf({ status: 'refunded', product: 'com.acme.pro.monthly' }), ['refunded', 'product:com.acme.pro.monthly']);
  });

  it('the filters become facets; none is the facet every record holds', () => {
    assert.deepEqual(facetsOf({}), ['all']);
    assert.deepEqual(facetsOf({ status: 'billing_issue' }), ['flagged:true']);
    assert.deepEqual(facetsOf({ status: 'trial', store: 'PLAY_STORE', environment: 'SANDBOX' }), [
      'trial',
      'store:PLAY_STORE',
      'environment:SANDBOX',
    ]);
    assert.deepEqual(facetsOf({ status: 'billing_issue', flagged: true }), ['flagged:true']);
  });

  it('pages by (sort key, _id) in the direction asked; an id prefix is a range of _ids', () => {
    const byMrr = customerListQuery('app:acme', key, { sort: '-mrr', limit: 10, after: { key: 5, id: key('b') }, status: 'active' });
    assert.deepEqual(byMrr.sort, { mrrMicros: -1, _id: -1 });
    assert.deepEqual(byMrr.filter, {
      scope: 'app:acme',
      mergedInto: null,
      facets: 'status:active',
      mrrMicros: { $lte: 5 },
      $or: [{ mrrMicros: { $lt: 5 } }, { mrrMicros: 5, _id: { $lt: key('b') } }],
    });
    const prefix = customerListQuery('app:acme', key, {
      sort: 'id',
      limit: 10,
      idPrefix: 'user-',
      after: { id: key('user-3') },
      store: 'APP_STORE',
      environment: 'PRODUCTION',
    });
    assert.deepEqual(prefix.sort, { _id: 1 });
    assert.deepEqual(prefix.filter, {
      scope: 'app:acme',
      mergedInto: null,
      facets: { $all: ['store:APP_STORE', 'environment:PRODUCTION'] },
      _id: { $gte: key('user-'), $lt: key('user-\u{10FFFF}'), $gt: key('user-3') },
    });
    // Descending within a prefix: the cursor is the nearer upper bound.
    const down = customerListQuery('app:acme', key, { sort: '-id', limit: 10, idPrefix: 'user-', after: { id: key('user-3') } });
    assert.deepEqual(down.filter._id, { $gte: key('user-'), $lt: key('user-3') });
    assert.deepEqual(down.sort, { _id: -1 });
  });
});
