/**
 * What a model did to one skill result, read from the result alone (pure, so it is unit-tested without a
 * model). The section-by-section drafter reports per section what happened (`result.model`); a result without
 * that report (one stored by the earlier whole-document drafter) only tells accepted (`generator` =
 * `llm:<model>`) or fell back (`deterministic`, with a note saying why), and this reads that instead.
 */

import type { ModelSectionReport, ResultSection, SkillResult } from '../../src/skills/result';

export type { ModelSectionReport };

/** The part of an invocation's `result` the benchmark reads. */
export type ResultView = Pick<SkillResult, 'generator' | 'notes' | 'model'> & {
  sections: (Pick<ResultSection, 'heading' | 'generator'> & Partial<Pick<ResultSection, 'markdownWithCitations'>>)[];
};

export interface ModelOutcome {
  /** accepted: every section with prose to rewrite came back and passed; partly: some did; fell back: none did. */
  verdict: 'accepted' | 'partly accepted' | 'fell back';
  generator: string;
  /** Sections whose text is the model's, of all sections. */
  sectionsByModel: { model: number; total: number } | null;
  /** Notes the model run added (the draft's own notes, which the baseline has too, are left out). */
  notes: string[];
  /** null when the result does not report sections (the whole-document drafter). */
  sections: ModelSectionReport[] | null;
  /** sum(kept) / sum(total) over the sections the model answered (accepted or refused); null when none reports facts. */
  factScore: { kept: number; total: number; ratio: number } | null;
}

const isModel = (generator: string | undefined) => generator !== undefined && generator.startsWith('llm:');
/** The drafter's reason for a section it did not send because it has no prose (src/activities/drafting.ts). */
const nothingToRewrite = (s: ModelSectionReport) => s.outcome === 'kept' && (s.reason ?? '').includes('nothing to rewrite');

export function factScore(sections: readonly ModelSectionReport[]): ModelOutcome['factScore'] {
  let kept = 0;
  let total = 0;
  let any = false;
  for (const s of sections) {
    if ((s.outcome !== 'accepted' && s.outcome !== 'refused') || !s.facts) continue;
    any = true;
    kept += s.facts.kept;
    total += s.facts.total;
  }
  // A section with no facts at all still counts as answered; with nothing to keep, the score is whole.
  return any ? { kept, total, ratio: total === 0 ? 1 : kept / total } : null;
}

export function modelOutcome(result: ResultView, baselineNotes: readonly string[] = []): ModelOutcome {
  const notes = (result.notes ?? []).filter((n) => !baselineNotes.includes(n));
  const reported = result.model?.sections ?? null;
  if (!reported) {
    const accepted = isModel(result.generator);
    return {
      verdict: accepted ? 'accepted' : 'fell back',
      generator: result.generator,
      sectionsByModel: null,
      notes,
      sections: null,
      factScore: null,
    };
  }
  // The sections' own generator when the result sets it, else the report's count of accepted sections.
  const byModel = result.sections.some((s) => s.generator !== undefined)
    ? result.sections.filter((s) => isModel(s.generator)).length
    : reported.filter((s) => s.outcome === 'accepted').length;
  const total = result.sections.length;
  // A section with nothing to rewrite is never sent: it neither makes nor spoils the verdict. One kept because
  // the model's part had stopped (a timeout, a refused request) counts against it.
  const attempted = reported.filter((s) => !nothingToRewrite(s));
  const accepted = attempted.filter((s) => s.outcome === 'accepted').length;
  const verdict = accepted === 0 ? 'fell back' : accepted === attempted.length ? 'accepted' : 'partly accepted';
  return {
    verdict,
    generator: result.generator,
    sectionsByModel: { model: byModel, total },
    notes,
    sections: reported,
    factScore: factScore(reported),
  };
}
