import assert from 'node:assert/strict';
import { blindPreference, scoreText, seededOrder } from '../../../bench/lib/preference';

describe('bench: the blind preference rubric', () => {
  const draft =
    'These changes need action before upgrading.\n\n- Remove the deprecated v1 orders endpoints by Marco Bianchi [pr:50]. Action required: /api/v1/orders is removed.';

  it('scores sentence length and passive voice as readability', () => {
    const short = scoreText('The team fixed the bug. It ships today.', 'neutral', 1);
    const long = scoreText(
      'The bug that was reported by several customers across many regions during the busy seasonal peak was fixed by the team after a long investigation of every service that was involved in the checkout flow and its payment capture path.',
      'neutral',
      1,
    );
    assert.equal(short.readability, 1);
    assert.ok(long.readability < 0.5, `long passive sentence: ${long.readability}`);
  });

  it('scores the requested tone: "you" and contractions for casual, none of them for formal, no hype for neutral', () => {
    assert.equal(scoreText("You'll need to act before you upgrade.", 'casual', 1).tone, 1);
    assert.equal(scoreText('Action is required before upgrading.', 'casual', 1).tone, 0);
    assert.equal(scoreText("You'll love it!", 'formal', 1).tone, 0);
    assert.equal(scoreText('An amazing release!', 'neutral', 1).tone, 0);
    assert.equal(scoreText('This release removes two endpoints.', 'neutral', 1).tone, 1);
  });

  it('counts facts kept, and leaves citation markers and link targets out of the text it reads', () => {
    assert.equal(scoreText('A fix [pr:12].', 'neutral', 0.5).facts, 0.5);
    assert.deepEqual(
      scoreText('A fix [pr:12] ([#12](https://example.test/pull/12)).', 'neutral', 1),
      scoreText('A fix ([#12]).', 'neutral', 1),
    );
  });

  it('prefers the better text whichever is shown first, and calls identical texts even', () => {
    const casual =
      "Heads up: you'll need to act on these changes before you upgrade.\n\n- Remove the deprecated v1 orders endpoints by Marco Bianchi [pr:50]. You'll need /api/v2/orders now.";
    for (const modelFirst of [true, false]) {
      assert.equal(blindPreference({ draft, model: casual, tone: 'casual', modelFactsKept: 1 }, modelFirst).preferred, 'model');
      assert.equal(blindPreference({ draft, model: draft, tone: 'casual', modelFactsKept: 1 }, modelFirst).preferred, 'none');
    }
  });

  it('draws the blind order from a seed: the same seed, the same order', () => {
    const a = seededOrder(35);
    const b = seededOrder(35);
    const first = Array.from({ length: 20 }, () => a());
    assert.deepEqual(
      Array.from({ length: 20 }, () => b()),
      first,
    );
    assert.ok(first.includes(true) && first.includes(false));
  });
});
