/**
 * Merges converge for any graph of aliases and transfers: cycles of any length, chains, any order and any
 * interleaving of the messages they cause end with exactly one canonical record per customer (the smallest id),
 * every other id leading to it, holding what applying every event of the customer to one record gives, and the
 * scope's MRR counting each subscription once. A property test over random merge graphs on the pure reducer.
 */
import assert from 'node:assert/strict';
import type { BillingEvent } from '../../../src/billing/provider-events';
import { canonicalView } from '../../../src/billing/canonical-view';
import { groupEvents, modelState } from '../../faults/model';
import { seeded, type Rng } from '../../../bench/lib/random';
import { DAY, T0, aliasEvent, monthly, subEvent, transferEvent } from './fixtures';
import { canonicalOf, runNetwork } from './merge-network';

const SCOPE = 'app:acme' as const;
const NOW = T0 + 10 * DAY;

function purchase(user: string, n: number): BillingEvent {
  return subEvent('INITIAL_PURCHASE', `buy-${user}-${n}`, T0 + n * 1000, monthly(0), {
    app_user_id: user,
    original_app_user_id: user,
    aliases: [user],
    original_transaction_id: `otx-${user}-${n}`,
  });
}

/** `a` and `b` are one customer: by an alias (either direction) or a transfer. */
function link(rng: Rng, id: string, a: string, b: string, at: number): BillingEvent {
  if (rng.chance(0.5)) return transferEvent(id, at, [a], [b]);
  return rng.chance(0.5) ? aliasEvent(id, at, a, [a, b]) : { ...aliasEvent(id, at, b, [b, a]), app_user_id: a };
}

/** A random merge graph: cycles, chains and random links over a pool of ids, purchases on some, shuffled, some twice. */
function randomGraph(rng: Rng, round: number): BillingEvent[] {
  const size = rng.int(2, 14);
  const ids = Array.from({ length: size }, (_, i) =>
    rng.chance(0.3) ? `$RCAnonymousID:${round}x${i}` : `user_${round}_${rng.int(0, 99)}_${i}`,
  );
  const events: BillingEvent[] = [];
  let n = 0;
  const at = () => T0 + DAY + n * 1000;
  // A cycle through a random subset, of length 3 or more when there are enough ids.
  const cycle = rng.sample(ids, rng.int(Math.min(3, size), size));
  for (let i = 0; i < cycle.length; i++) events.push(link(rng, `link-${round}-${n++}`, cycle[i]!, cycle[(i + 1) % cycle.length]!, at()));
  // Random extra links, a chain, and purchases on random ids.
  for (let i = rng.int(0, size); i > 0; i--) events.push(link(rng, `link-${round}-${n++}`, rng.pick(ids), rng.pick(ids), at()));
  for (const id of ids) if (rng.chance(0.5)) events.push(purchase(id, n++));
  const shuffled = rng.sample(events, events.length);
  for (const e of events) if (rng.chance(0.15)) shuffled.splice(rng.int(0, shuffled.length), 0, e);
  return shuffled;
}

function checkConverged(events: BillingEvent[], rng: Rng): void {
  const { records } = runNetwork(SCOPE, events, NOW, rng);
  let modelMrr = 0;
  for (const group of groupEvents(events)) {
    const smallest = [...group.ids].sort()[0]!;
    const canonical = records.get(smallest);
    assert.ok(canonical, `the smallest id ${smallest} has a record`);
    assert.equal(canonical.mergedInto, null, `${smallest} stays canonical`);
    for (const id of group.ids) {
      assert.ok(records.has(id), `${id} has a record`);
      assert.equal(canonicalOf(records, id).id, smallest, `${id} leads to ${smallest}`);
      assert.ok(canonical.aliases.includes(id), `${smallest} knows ${id}`);
    }
    const model = canonicalView(modelState(SCOPE, smallest, group.events, NOW));
    const actual = canonicalView(canonical);
    assert.deepEqual(actual.subscriptions, model.subscriptions);
    assert.deepEqual(actual.entitlements, model.entitlements);
    assert.equal(actual.mrrContributionMicros, model.mrrContributionMicros);
    modelMrr += model.mrrContributionMicros;
  }
  const canonicals = [...records.values()].filter((r) => r.mergedInto === null);
  assert.equal(canonicals.length, groupEvents(events).length, 'one canonical record per customer');
  const mrr = [...records.values()].reduce((sum, r) => sum + r.mrrContributionMicros, 0);
  assert.equal(mrr, modelMrr, 'each subscription counted once');
}

describe('merge convergence (property)', () => {
  it('a 3-cycle of aliases A→B, B→C, C→A ends with one canonical record, in every delivery order', () => {
    const ids = ['user_a', 'user_b', 'user_c'];
    const cycle = ids.map((id, i) => aliasEvent(`al-${i}`, T0 + DAY + i, id, [id, ids[(i + 1) % 3]!]));
    const events = [purchase('user_b', 1), purchase('user_c', 2), ...cycle];
    for (let seed = 1; seed <= 200; seed++) checkConverged(seeded(seed).sample(events, events.length), seeded(seed * 7));
  });

  it('a 10-cycle of transfers converges', () => {
    const ids = Array.from({ length: 10 }, (_, i) => `user_${String(i).padStart(2, '0')}`);
    const cycle = ids.map((id, i) => transferEvent(`tr-${i}`, T0 + DAY + i, [id], [ids[(i + 1) % 10]!]));
    const events = [...ids.map((id, i) => purchase(id, i)), ...cycle];
    for (let seed = 1; seed <= 100; seed++) checkConverged(seeded(seed).sample(events, events.length), seeded(seed * 13));
  });

  it('random merge graphs (cycles, chains, duplicates, random interleavings) converge to the smallest id', () => {
    const rounds = Number(process.env.MERGE_PROPERTY_ROUNDS ?? 400);
    for (let round = 1; round <= rounds; round++) {
      const rng = seeded(round);
      const events = randomGraph(rng, round);
      try {
        checkConverged(events, rng);
      } catch (err) {
        (err as Error).message = `round ${round} (${events.length} events): ${(err as Error).message}`;
        throw err;
      }
    }
  });

  it('a record that learns of a smaller id hands itself over in the same step', () => {
    const { records } = runNetwork(
      SCOPE,
      [purchase('user_z', 1), aliasEvent('al', T0 + DAY, 'user_z', ['user_z', 'user_a'])],
      NOW,
      seeded(1),
    );
    assert.equal(records.get('user_z')!.mergedInto, 'user_a');
    assert.equal(records.get('user_a')!.status, 'active');
  });
});
