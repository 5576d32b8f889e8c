/**
 * The fault suite's checker (test/faults/model.ts) must notice what it is there to notice: a lost event, a
 * customer with two canonical records, a wrong view, an event applied twice. Checked here on records built
 * with the reducer, so a vacuous checker fails in the unit tests rather than passing the fault suite.
 */
import assert from 'node:assert/strict';
import { mergeInto, type SubscriberState } from '../../../src/billing/subscriber-state';
import { canonicalView } from '../../../src/billing/canonical-view';
import type { SubscriberRecord } from '../../../src/store/subscribers';
import { checkScope, groupEvents, modelState } from '../../faults/model';
import { DAY, T0, subEvent, transferEvent } from './fixtures';

const period = { purchasedAt: T0, expiresAt: T0 + 30 * DAY };
const forUser = (user: string, id: string) =>
  subEvent('INITIAL_PURCHASE', id, T0, period, {
    app_user_id: user,
    original_app_user_id: user,
    aliases: [user],
    original_transaction_id: `otx-${user}`,
  });

function recordOf(state: SubscriberState): SubscriberRecord {
  return {
    subscriberId: state.id,
    mergedInto: state.mergedInto,
    view: canonicalView(state),
    state,
    version: state.version,
  } as SubscriberRecord;
}

describe('fault suite checker', () => {
  const events = [forUser('a', 'e1'), forUser('b', 'e2'), transferEvent('e3', T0 + DAY, ['a'], ['b']), forUser('c', 'e4')];
  const now = T0 + DAY * 2;
  const honest = () => {
    // The transfer merges a and b; the smaller id, a, stays canonical.
    const a = modelState('app:x', 'a', events.slice(0, 3), now);
    const b = mergeInto(modelState('app:x', 'b', [events[1]!], now), 'a', now).state;
    const c = modelState('app:x', 'c', [events[3]!], now);
    return [recordOf(a), recordOf(b), recordOf(c)];
  };

  it('groups the ids an event names together', () => {
    assert.deepEqual(
      groupEvents(events).map((g) => g.ids),
      [['a', 'b'], ['c']],
    );
  });

  it('accepts records that hold what the reducer gives', () => {
    const result = checkScope('app:x', events, [], honest(), now);
    assert.deepEqual(result.problems, []);
    assert.equal(result.applied, 4);
  });

  it('reports an acknowledged event that was not applied, a wrong view, two canonicals, a double application', () => {
    const [a, b, c] = honest();
    const lost = checkScope('app:x', [...events, forUser('c', 'e5')], [], [a!, b!, c!], now).problems.join('\n');
    assert.match(lost, /acknowledged but not applied: INITIAL_PURCHASE e5/);
    assert.match(lost, /c \(subscriber c\) differs from the model: .*lastEvent/);

    const split = checkScope('app:x', events, [], [a!, { ...b!, mergedInto: null }, c!], now).problems.join('\n');
    assert.match(split, /2 canonical records \(a, b\)/);

    const twice = recordOf({ ...c!.state!, appliedEventIds: ['e4', 'e1'] });
    const doubled = checkScope('app:x', events, [], [a!, b!, twice], now).problems.join('\n');
    assert.match(doubled, /event e1 applied by 2 customers: a, c/);
  });
});
