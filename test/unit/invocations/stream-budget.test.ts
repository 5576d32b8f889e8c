import assert from 'node:assert/strict';
import { StreamBudget, TooManyStreams } from '../../../src/invocations/stream-budget';

/** The scope a refused acquire names ('caller' or 'process'), or 'taken' when it was not refused. */
const refusal = (fn: () => unknown) => {
  try {
    fn();
    return 'taken';
  } catch (err) {
    assert.ok(err instanceof TooManyStreams);
    return err.scope;
  }
};

describe('StreamBudget', () => {
  it('a share per caller, a bound per process, released once', () => {
    const budget = new StreamBudget(2, 3);
    const a1 = budget.acquire('a');
    budget.acquire('a');
    assert.equal(
      refusal(() => budget.acquire('a')),
      'caller',
    );
    budget.acquire('b');
    assert.equal(
      refusal(() => budget.acquire('c')),
      'process',
    );
    a1();
    a1();
    assert.equal(
      refusal(() => budget.acquire('c')),
      'taken',
    );
    assert.equal(
      refusal(() => budget.acquire('d')),
      'process',
      'a second release gave nothing back',
    );
  });

  it('says how many streams the refused scope holds', () => {
    const budget = new StreamBudget(1, 5);
    budget.acquire('a');
    assert.throws(
      () => budget.acquire('a'),
      (err: unknown) => err instanceof TooManyStreams && err.scope === 'caller' && err.open === 1,
    );
  });
});
