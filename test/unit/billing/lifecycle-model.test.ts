/**
 * Property: for any world of subscription histories (test/support/billing-model/), rendered as the provider's
 * events and delivered as the provider delivers them (late, reordered within days, twice, retried), the pure
 * reducer — run as the workflows run it, merges and forwards included — ends with what the reference model says
 * each customer must be, and with its totals. 2,000 worlds by default; BILLING_MODEL_RUNS=N runs N (nightly),
 * BILLING_MODEL_SEED=S replays one seed. A failure prints the shrunk world: its histories and its events.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ignoredReasonOf } from '../../../src/billing-intake/accept-event';
import { withPlausibleTime } from '../../../src/billing/event-time';
import { addTotals, contributionOf, ZERO_TOTALS } from '../../../src/billing/metrics';
import { KNOWN_EVENT_TYPES, reducerEvent } from '../../../src/billing/provider-events';
import { applyDowngrade } from '../../../src/billing/subscriber-state';
import { seeded } from '../../../bench/lib/random';
import { drawsFor, monthDraws, worldDraws, type Draws } from '../../support/billing-model/arbitrary';
import { HOUR } from '../../support/billing-model/catalog';
import { planDeliveries } from '../../support/billing-model/delivery';
import { drawWorld, type World } from '../../support/billing-model/history';
import { expectWorld } from '../../support/billing-model/model';
import { differences, observedFromState } from '../../support/billing-model/observed';
import { renderWorld } from '../../support/billing-model/render';
import { canonicalOf, runNetwork } from './merge-network';

const HORIZON = Date.UTC(2026, 5, 1, 12, 0, 0);
const RUNS = Number(process.env.BILLING_MODEL_RUNS ?? 2000);

/** Runs one world through the reducer; returns the problems found (empty: the reducer agrees with the model). */
export function checkWorld(draws: Draws): { problems: string[]; world: World } {
  const world = drawWorld(draws.world, HORIZON, { windowDays: 60 });
  const events = renderWorld(world, 'm');
  // What the intake relays: known types that name a subscriber, cut to the members the workflow is given.
  const deliveries = planDeliveries(events, draws.delivery).filter((d) => ignoredReasonOf(d.event) === null);
  const lastSent = deliveries.reduce((max, d) => Math.max(max, d.sentAtMs), HORIZON);
  const asOfMs = lastSent + draws.readAfterHours * HOUR;
  const timed = deliveries.map((d) => ({ event: withPlausibleTime(reducerEvent(d.event), d.sentAtMs), receivedAtMs: d.sentAtMs }));
  const { records } = runNetwork('app:model', timed, HORIZON, seeded(draws.delivery[0] ?? 1));
  // The workflows' timers: every record re-derived when the state is read.
  for (const [id, state] of records) records.set(id, applyDowngrade(state, asOfMs).state);

  const expected = expectWorld(world, asOfMs);
  const problems: string[] = [];
  for (const customer of expected.customers) {
    const ids = [customer.id, ...customer.aliases];
    const found = ids.filter((id) => records.has(id)).map((id) => canonicalOf(records, id).id);
    if (found.length === 0) {
      if (customer.status !== 'none' || customer.aliases.length > 0) problems.push(`${customer.id}: no record`);
      continue;
    }
    if (new Set(found).size !== 1 || found[0] !== customer.id)
      problems.push(`${customer.id}: its ids lead to ${[...new Set(found)].join(', ')}`);
    const state = records.get(customer.id);
    if (!state) continue;
    for (const line of differences(customer, observedFromState(state))) problems.push(`${customer.id}: ${line}`);
  }
  const totals = [...records.values()].map(contributionOf).reduce(addTotals, { ...ZERO_TOTALS });
  for (const line of differences(expected.totals, totals)) problems.push(`totals: ${line}`);
  return { problems, world };
}

describe('billing reducer against the reference model of the provider', function () {
  this.timeout(600_000);

  it("the live month test's world sends every type the provider documents", () => {
    const month = drawWorld(drawsFor(monthDraws(340), 31).world, HORIZON, { windowDays: 45 });
    const types = new Set(renderWorld(month, 'm').map((e) => e.type));
    assert.deepEqual(
      [...KNOWN_EVENT_TYPES].filter((t) => !types.has(t)),
      [],
    );
  });

  it(`agrees on every customer and the totals for ${RUNS} seeded worlds (shrinks to a minimal history)`, () => {
    const seed = process.env.BILLING_MODEL_SEED === undefined ? 0x31_2026 : Number(process.env.BILLING_MODEL_SEED);
    const property = fc.property(worldDraws(6), (draws) => {
      const { problems, world } = checkWorld(draws);
      if (problems.length > 0) {
        const events = renderWorld(world, 'm').sort((a, b) => Number(a.event_timestamp_ms) - Number(b.event_timestamp_ms));
        const story = JSON.stringify(world.customers, (k, v: unknown) =>
          k === 'product' || k === 'to' || k === 'changedFrom' ? (v as { id: string }).id : v,
        );
        throw new Error(
          `${problems.join('\n')}\nhistories: ${story}\nevents:\n${events.map((e) => JSON.stringify(reducerEvent(e))).join('\n')}`,
        );
      }
    });
    const result = fc.check(property, { numRuns: RUNS, seed });
    if (result.failed) assert.fail(`${fc.defaultReportMessage(result)}\n${String(result.errorInstance)}`);
  });
});
