import assert from 'node:assert/strict';
import { contributionOf } from '../../../src/billing/metrics';
import { absorb, applyDowngrade, applyEvent, entitlementTargets, mergeInto, outranks } from '../../../src/billing/subscriber-state';
import { canonicalView } from '../../../src/billing/canonical-view';
import { searchStatus, summary } from '../../../src/billing/summary';
import { ANON, DAY, T0, USER, aliasEvent, monthly, subEvent, transferEvent } from './fixtures';
import { deliver, fresh } from './helpers';

const LEGACY = 'legacy-user-77';
const NOW = T0 + 10 * DAY;

describe('merging subscriber records', () => {
  describe('SUBSCRIBER_ALIAS', () => {
    it('adds the new ids to the aliases and asks their records to merge here', () => {
      const base = deliver([subEvent('INITIAL_PURCHASE', 'ip', T0, monthly(0))], T0).state;
      const { state, effects } = applyEvent(base, aliasEvent('al1', T0 + DAY, ANON, [ANON, USER, LEGACY]), T0 + DAY);
      assert.deepEqual(state.aliases, [ANON, LEGACY, USER].sort());
      assert.deepEqual(effects, [{ kind: 'merge', from: [LEGACY], listed: true }], 'the new id, which this record now lists');
      assert.equal(state.status, 'active');
      const again = applyEvent(state, aliasEvent('al2', T0 + 2 * DAY, ANON, [ANON, LEGACY]), T0 + 2 * DAY);
      assert.deepEqual(again.effects, [], 'ids already known need no merge');
      assert.deepEqual(again.state.lastEvent?.id, 'al2');
    });
  });

  describe('mergeInto and absorb', () => {
    const sameSubscription = [subEvent('INITIAL_PURCHASE', 'ip', T0, monthly(0))];
    // The same events as the legacy record saw them: under its own id only (naming ANON would merge it at once).
    const asLegacy = (events: typeof sameSubscription) =>
      events.map((e) => ({ ...e, app_user_id: LEGACY, original_app_user_id: LEGACY, aliases: [LEGACY] }));

    it('makes the merged record point to the canonical one, show nothing and forward everything', () => {
      const legacy = deliver(asLegacy(sameSubscription), NOW, fresh('app:acme', LEGACY)).state;
      const merged = mergeInto(legacy, ANON, NOW);
      assert.equal(merged.state.mergedInto, ANON);
      assert.equal(merged.state.status, 'none');
      assert.deepEqual(merged.state.entitlements, []);
      assert.equal(merged.state.subscriptions.length, 1, 'the history is kept');
      // No entitlement write from the record that gives way: the canonical record writes for both.
      assert.deepEqual(merged.effects, [{ kind: 'transfer_out', to: ANON, entitlementIds: ['pro'] }]);
      assert.equal(searchStatus(merged.state), 'merged');
      assert.equal(summary(merged.state), `merged into ${ANON}`);

      const forwarded = applyEvent(merged.state, subEvent('RENEWAL', 'r1', T0 + 30 * DAY, monthly(1)), NOW);
      assert.deepEqual(forwarded.effects, [{ kind: 'forward', to: ANON }]);
      assert.equal(forwarded.state, merged.state);
      assert.deepEqual(absorb(merged.state, fresh(), NOW).effects, [{ kind: 'forward', to: ANON }]);
      assert.deepEqual(applyDowngrade(merged.state, NOW + 40 * DAY).effects, []);
      assert.deepEqual(
        mergeInto(merged.state, 'someone-else', NOW).effects,
        [{ kind: 'merge', from: [ANON], into: 'someone-else' }],
        'a merged record passes the request on',
      );
      assert.deepEqual(mergeInto(merged.state, ANON, NOW).effects, [], 'a request it already followed changes nothing');
      assert.deepEqual(mergeInto(fresh(), ANON, NOW).effects, [], 'a record never merges into itself');
      assert.deepEqual(
        mergeInto(fresh(), 'zz-larger', NOW).effects,
        [{ kind: 'merge', from: ['zz-larger'] }],
        'a larger id is asked to merge here',
      );
    });

    it('a listed record that never changed merges without handing anything over; one with a past, or unlisted, hands it over', () => {
      // The canonical record learned LEGACY from an alias event: it lists it, and says so in its merge.
      const canonical = applyEvent(deliver(sameSubscription, T0).state, aliasEvent('al1', T0 + DAY, ANON, [ANON, LEGACY]), T0 + DAY);
      assert.ok(canonical.state.aliases.includes(LEGACY));
      assert.deepEqual(canonical.effects, [{ kind: 'merge', from: [LEGACY], listed: true }]);

      const blank = mergeInto(fresh('app:acme', LEGACY), ANON, NOW, undefined, true);
      assert.equal(blank.state.mergedInto, ANON, 'it still points to the canonical record and forwards from now on');
      assert.deepEqual(blank.effects, [], 'nothing to hand over: absorbing a blank record would change nothing but the version');
      assert.deepEqual(
        absorb(canonical.state, fresh('app:acme', LEGACY), NOW).state.aliases,
        canonical.state.aliases,
        'what absorbing it would have added is already there',
      );

      const unlisted = mergeInto(fresh('app:acme', LEGACY), ANON, NOW);
      assert.deepEqual(unlisted.effects, [{ kind: 'transfer_out', to: ANON, entitlementIds: [] }], 'unlisted: the canonical learns its id');
      const withPast = mergeInto(deliver(asLegacy(sameSubscription), NOW, fresh('app:acme', LEGACY)).state, ANON, NOW, undefined, true);
      assert.deepEqual(
        withPast.effects,
        [{ kind: 'transfer_out', to: ANON, entitlementIds: ['pro'] }],
        'a record with events hands them over',
      );
    });

    it('never counts a subscription known to both records twice', () => {
      const canonical = deliver(sameSubscription, NOW).state;
      const legacy = deliver(asLegacy(sameSubscription), NOW, fresh('app:acme', LEGACY)).state;
      const merged = mergeInto(legacy, ANON, NOW).state;
      const absorbed = absorb(canonical, merged, NOW);
      assert.equal(absorbed.state.subscriptions.length, 1);
      assert.equal(contributionOf(absorbed.state).mrrMicros + contributionOf(merged).mrrMicros, 9_990_000);
      assert.deepEqual(absorbed.state.aliases, [ANON, LEGACY, USER].sort());
      assert.deepEqual(absorbed.effects, []);
    });

    it('gives the same record as receiving every event in one place, and absorbing twice changes nothing', () => {
      const events = [
        subEvent('INITIAL_PURCHASE', 'ip', T0, monthly(0)),
        subEvent('BILLING_ISSUE', 'b1', T0 + 30 * DAY, monthly(0)),
        subEvent('RENEWAL', 'r1', T0 + 30 * DAY + 1, monthly(1)),
        subEvent('CANCELLATION', 'c1', T0 + 40 * DAY, monthly(1), { cancel_reason: 'UNSUBSCRIBE' }),
        subEvent(
          'INITIAL_PURCHASE',
          'ip-year',
          T0 + 5 * DAY,
          { purchasedAt: T0 + 5 * DAY, expiresAt: T0 + 370 * DAY },
          { original_transaction_id: 'Y1', price: 99.99 },
        ),
      ];
      const now = T0 + 45 * DAY;
      const whole = deliver(events, now).state;
      const canonical = deliver([events[0], events[3]], now).state;
      const legacy = mergeInto(
        deliver(asLegacy([events[1]!, events[2]!, events[4]!]), now, fresh('app:acme', LEGACY)).state,
        ANON,
        now,
      ).state;
      const once = absorb(canonical, legacy, now).state;
      const twice = absorb(once, legacy, now).state;
      const withoutAliases = (view: ReturnType<typeof canonicalView>) => ({ ...view, aliases: [] });
      assert.deepEqual(withoutAliases(canonicalView(once)), withoutAliases(canonicalView(whole)));
      assert.deepEqual(canonicalView(twice), canonicalView(once));
      assert.equal(once.status, 'active');
      assert.equal(once.scheduledDowngrade?.subscriptionKey, '1000000000000001');
    });
  });

  describe('TRANSFER', () => {
    const SOURCE = '$RCAnonymousID:0ldd3v1ce';
    const DEST = 'new-login-42';
    const asSource = { app_user_id: SOURCE, original_app_user_id: SOURCE, aliases: [SOURCE] };
    const sourceEvents = [
      subEvent('INITIAL_PURCHASE', 's-active', T0, monthly(0), { ...asSource, original_transaction_id: 'A', entitlement_ids: ['pro'] }),
      subEvent('INITIAL_PURCHASE', 's-refunded', T0, monthly(0), { ...asSource, original_transaction_id: 'R', entitlement_ids: ['extra'] }),
      subEvent('CANCELLATION', 's-refund', T0 + DAY, monthly(0), {
        ...asSource,
        original_transaction_id: 'R',
        cancel_reason: 'CUSTOMER_SUPPORT',
        price: -9.99,
      }),
      subEvent(
        'INITIAL_PURCHASE',
        's-old',
        T0 - 60 * DAY,
        { purchasedAt: T0 - 60 * DAY, expiresAt: T0 - 30 * DAY },
        { ...asSource, original_transaction_id: 'X', entitlement_ids: ['old'] },
      ),
    ];
    const transfer = transferEvent('tr1', T0 + 2 * DAY, [SOURCE], [DEST]);

    it('merges the records under the smaller id, the live entitlements with it, never re-activating refunded or expired ones', () => {
      const source = deliver(sourceEvents, NOW, fresh('app:acme', SOURCE)).state;
      assert.deepEqual(
        source.entitlements.map((e) => e.id),
        ['pro'],
      );

      // The destination learns of the source, a smaller id, and hands itself over in the same step.
      const destination = applyEvent(fresh('app:acme', DEST), transfer, NOW);
      assert.equal(destination.state.mergedInto, SOURCE);
      assert.deepEqual(destination.effects, [{ kind: 'transfer_out', to: SOURCE, entitlementIds: [] }]);

      const gained = absorb(source, destination.state, NOW);
      assert.deepEqual(
        gained.state.entitlements.map((e) => e.id),
        ['pro'],
      );
      assert.deepEqual(gained.state.aliases, [SOURCE, DEST].sort());
      const statuses = Object.fromEntries(canonicalView(gained.state).subscriptions.map((s) => [s.key, s.status]));
      assert.deepEqual(statuses, { A: 'active', R: 'refunded', X: 'expired' });
      assert.equal(contributionOf(gained.state).mrrMicros + contributionOf(destination.state).mrrMicros, 9_990_000);
      assert.equal(gained.state.lastEvent?.id, 'tr1');
    });

    it("keeps the destination's own subscription when the records merge", () => {
      const own = subEvent('INITIAL_PURCHASE', 'd-own', T0, monthly(0), {
        app_user_id: DEST,
        original_app_user_id: DEST,
        aliases: [DEST],
        original_transaction_id: 'D',
        entitlement_ids: ['team'],
      });
      const destination = deliver([own, transfer], NOW, fresh('app:acme', DEST)).state;
      assert.equal(destination.mergedInto, SOURCE);
      const gained = absorb(deliver(sourceEvents, NOW, fresh('app:acme', SOURCE)).state, destination, NOW).state;
      assert.deepEqual(
        gained.entitlements.map((e) => e.id),
        ['pro', 'team'],
      );
      assert.equal(gained.mrrContributionMicros, 2 * 9_990_000);
    });

    it('in the operator scope, entitles the destination org and takes the entitlements from the source org', () => {
      const ORG_A = 'org_a';
      const ORG_B = 'org_b';
      const paid = subEvent('INITIAL_PURCHASE', 'p', T0, monthly(0), {
        app_user_id: ORG_A,
        original_app_user_id: ANON,
        aliases: [ANON, ORG_A],
      });
      const canonical = deliver([paid, transferEvent('t', T0 + DAY, [ORG_A], [ORG_B])], NOW, fresh('operator', ANON)).state;
      assert.deepEqual(entitlementTargets(canonical), { targets: [ORG_B, ANON], revoked: [ORG_A] });
    });
  });

  describe('two records that each claim the other (opposite alias events relayed close together)', () => {
    const claim = (id: string, other: string) =>
      applyEvent(
        deliver(
          [
            subEvent('INITIAL_PURCHASE', `ip-${id}`, T0, monthly(0), {
              app_user_id: id,
              original_app_user_id: id,
              aliases: [id],
              original_transaction_id: `otx-${id}`,
            }),
          ],
          T0,
          fresh('app:acme', id),
        ).state,
        aliasEvent(`al-${id}`, T0 + DAY, id, [id, other]),
        T0 + DAY,
      );

    it('each asks the other to merge, and the smaller id stays canonical, whichever request arrives first', () => {
      const a = claim('user-a', 'user-b');
      const b = claim('user-b', 'user-a');
      assert.deepEqual(
        a.effects.filter((e) => e.kind === 'merge'),
        [{ kind: 'merge', from: ['user-b'], listed: true }],
      );
      assert.equal(b.state.mergedInto, 'user-a', 'user-b hands itself over as soon as it learns of user-a');
      const aAsked = mergeInto(a.state, 'user-b', NOW);
      assert.equal(aAsked.state.mergedInto, null, 'user-a stays canonical');
      assert.deepEqual(aAsked.effects, [{ kind: 'merge', from: ['user-b'] }], 'and asks user-b again, which changes nothing there');
      assert.deepEqual(mergeInto(b.state, 'user-a', NOW).effects, []);
      // The survivor absorbs the other: one customer with both histories, never two pointing at each other.
      const joined = absorb(aAsked.state, b.state, NOW);
      assert.equal(joined.state.mergedInto, null);
      assert.equal(joined.state.subscriptions.length, 2);
    });

    it("ranks by id, a total order: an anonymous id (the provider's usual original id) before a known one", () => {
      assert.ok(outranks(ANON, 'user-z') && !outranks('user-z', ANON));
      assert.ok(outranks('a', 'b') && !outranks('b', 'a'));
    });
  });
});
