/**
 * What a model did to one skill result, read from the result alone (pure, so it is unit-tested without a
 * model). With the section-by-section drafter the result says per section what happened (`result.model`);
 * a result without it (the whole-document drafter) only tells accepted (`generator` = `llm:<model>`) or fell
 * back (`deterministic`, with a note saying why), and this reads that instead.
 */

export type SectionOutcomeKind = 'accepted' | 'refused' | 'failed' | 'timed_out' | 'kept';

export interface ModelSectionReport {
  heading: string;
  outcome: SectionOutcomeKind;
  reason?: string;
  durationMs: number;
  /** Facts (citations, numbers, versions…) of the draft's section, and how many the model's text kept. */
  facts?: { total: number; kept: number };
}

/** The part of an invocation's `result` the benchmark reads. */
export interface ResultView {
  generator: string;
  notes?: string[];
  sections: { heading: string; generator?: string }[];
  model?: { name: string; sections: ModelSectionReport[] };
}

export interface ModelOutcome {
  /** accepted: every section given to the model came back and passed; partly: some did; fell back: none did. */
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
    return { verdict: accepted ? 'accepted' : 'fell back', generator: result.generator, sectionsByModel: null, notes, sections: null, factScore: null };
  }
  // The sections' own generator when the result sets it, else the report's count of accepted sections.
  const byModel = result.sections.some((s) => s.generator !== undefined)
    ? result.sections.filter((s) => isModel(s.generator)).length
    : reported.filter((s) => s.outcome === 'accepted').length;
  const total = result.sections.length;
  // 'kept' sections were not given to the model (nothing to rewrite): they neither make nor spoil the verdict.
  const attempted = reported.filter((s) => s.outcome !== 'kept');
  const accepted = attempted.filter((s) => s.outcome === 'accepted').length;
  const verdict = accepted === 0 ? 'fell back' : accepted === attempted.length ? 'accepted' : 'partly accepted';
  return { verdict, generator: result.generator, sectionsByModel: { model: byModel, total }, notes, sections: reported, factScore: factScore(reported) };
}
