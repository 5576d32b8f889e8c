import assert from 'node:assert/strict';
import { factScore, modelOutcome, type ModelSectionReport, type ResultView } from '../../../bench/lib/model-outcome';

const section = (
  heading: string,
  outcome: ModelSectionReport['outcome'],
  facts?: { total: number; kept: number },
  reason?: string,
): ModelSectionReport => ({
  heading,
  outcome,
  durationMs: 1000,
  ...(facts ? { facts } : {}),
  ...(reason ? { reason } : {}),
});
const NOTHING = 'not sent: nothing to rewrite';

describe('model benchmark: reading a result', () => {
  it('without a per-section report, tells accepted or fell back from the generator and keeps only the notes the model added', () => {
    const draftNote = 'Two tickets have no linked pull request.';
    const accepted: ResultView = { generator: 'llm:smollm2-135m', notes: [draftNote], sections: [{ heading: 'Highlights' }] };
    const fellBack: ResultView = {
      generator: 'deterministic',
      notes: [draftNote, "The model's answer was not used: x. This is the deterministic draft."],
      sections: [{ heading: 'Highlights' }],
    };
    assert.deepEqual(modelOutcome(accepted, [draftNote]), {
      verdict: 'accepted',
      generator: 'llm:smollm2-135m',
      sectionsByModel: null,
      notes: [],
      sections: null,
      factScore: null,
    });
    const o = modelOutcome(fellBack, [draftNote]);
    assert.equal(o.verdict, 'fell back');
    assert.deepEqual(o.notes, ["The model's answer was not used: x. This is the deterministic draft."]);
  });

  it('with a per-section report, counts sections by their generator; sections with nothing to rewrite are left out of the verdict, others kept count against it', () => {
    const result: ResultView = {
      generator: 'llm:m',
      sections: [
        { heading: 'A', generator: 'llm:m' },
        { heading: 'B', generator: 'deterministic' },
        { heading: 'C', generator: 'deterministic' },
      ],
      model: {
        name: 'm',
        sections: [
          section('A', 'accepted', { total: 4, kept: 3 }),
          section('B', 'refused', { total: 2, kept: 0 }),
          section('C', 'kept', undefined, NOTHING),
        ],
      },
    };
    const o = modelOutcome(result);
    assert.equal(o.verdict, 'partly accepted');
    assert.deepEqual(o.sectionsByModel, { model: 1, total: 3 });
    assert.deepEqual(o.factScore, { kept: 3, total: 6, ratio: 0.5 });

    const allAccepted = modelOutcome({
      ...result,
      model: { name: 'm', sections: [section('A', 'accepted'), section('C', 'kept', undefined, NOTHING)] },
    });
    assert.equal(allAccepted.verdict, 'accepted');
    const stopped = modelOutcome({
      ...result,
      model: {
        name: 'm',
        sections: [
          section('A', 'accepted'),
          section('B', 'timed_out'),
          section('C', 'kept', undefined, 'not sent: the model did not answer within 1000 ms'),
        ],
      },
    });
    assert.equal(stopped.verdict, 'partly accepted');
    const none = modelOutcome({ ...result, model: { name: 'm', sections: [section('A', 'timed_out'), section('B', 'failed')] } });
    assert.equal(none.verdict, 'fell back');
  });

  it('scores facts only over sections the model answered (accepted or refused)', () => {
    assert.deepEqual(
      factScore([
        section('A', 'accepted', { total: 5, kept: 5 }),
        section('B', 'timed_out', { total: 9, kept: 0 }),
        section('C', 'failed'),
      ]),
      { kept: 5, total: 5, ratio: 1 },
    );
    assert.equal(factScore([section('A', 'timed_out'), section('B', 'kept', { total: 3, kept: 3 }, NOTHING)]), null);
    assert.deepEqual(factScore([section('A', 'refused', { total: 0, kept: 0 })]), { kept: 0, total: 0, ratio: 1 });
  });
});
