/**
 * The skills' single entry point for activities and workflows. Pure and deterministic: no I/O, no clock
 * (time comes in as `now`), so the same inputs and documents always give byte-identical results.
 *
 *   plan = retrievalPlan(skill, inputs)                    what to fetch (see retrieval-plan.ts)
 *   docs = for each step: resolveQueries(step, docs) → store → append
 *   draft = selectAndDraft(skill, inputs, docs, now)       the deterministic result
 *   with a model, per section of rewriteTargets(...): sectionMessages(...) → model → acceptSectionAnswer(...),
 *   then composeModelResult(...) with the accepted sections (model-rewrite.ts)
 */
import { prepareDocuments } from './assemble';
import type { ProjectDocument } from './documents';
import { skillOf } from './catalog';
import type { SkillInputs } from './inputs';
import { composeRewrite, sectionMessages as messagesFor, sectionsToRewrite, type ChatMessage } from './model-rewrite';
import type { ModelSectionReport, SkillResult } from './result';
import { plannedKinds, type RetrievalPlan } from './retrieval-plan';
import type { SkillName } from './types';

export { validateBusinessRules, type BusinessRuleError, type ProjectFacts } from './business-rules';
export { checkResult, type Violation } from './check-result';
export { acceptSectionAnswer, answerTokenBudget, SECTION_ANSWER_SCHEMA, type ChatMessage, type SectionVerdict } from './model-rewrite';

const isoNow = (now: string | Date) => (typeof now === 'string' ? now : now.toISOString());

/** What to fetch for this invocation, as data (see retrieval-plan.ts for the format). */
export function retrievalPlan<S extends SkillName>(skill: S, inputs: SkillInputs[S]): RetrievalPlan {
  return skillOf(skill).plan(inputs);
}

/**
 * Ranks and selects among everything the plan fetched (in any order, repeats allowed) and drafts the
 * result with `generator: "deterministic"`. `now` (ISO string or Date) is the only clock: proposal recency
 * and "as of" wording in an unresolved incident depend on it.
 */
export function selectAndDraft<S extends SkillName>(
  skill: S,
  inputs: SkillInputs[S],
  fetchedDocs: readonly ProjectDocument[],
  now: string | Date,
): SkillResult {
  const mod = skillOf(skill);
  return mod.draft(inputs, prepareDocuments(fetchedDocs), plannedKinds(mod.plan(inputs)), isoNow(now));
}

/** Indexes of the draft's sections a model is asked to rewrite. */
export function rewriteTargets(skill: SkillName, draft: SkillResult): number[] {
  return sectionsToRewrite(draft, skillOf(skill).fixedSections);
}

/** Phrases a rewrite of this invocation must keep with the claims the draft puts them with (see acceptSectionAnswer). */
export function rewriteAnchors<S extends SkillName>(skill: S, inputs: SkillInputs[S]): readonly string[] {
  return skillOf(skill).anchors?.(inputs) ?? [];
}

/** The chat messages asking a model to rewrite section `index` of `draft`. */
export function sectionMessages<S extends SkillName>(skill: S, inputs: SkillInputs[S], draft: SkillResult, index: number): ChatMessage[] {
  return messagesFor(skillOf(skill).instructions(inputs), draft, index);
}

/**
 * The result with the model's accepted sections (by index) in place of the draft's, `generator: "llm:<model>"`
 * when at least one was accepted, the model's per-section report and `notes`.
 */
export function composeModelResult<S extends SkillName>(
  skill: S,
  inputs: SkillInputs[S],
  draft: SkillResult,
  retrievedDocs: readonly ProjectDocument[],
  model: string,
  outcome: { accepted: ReadonlyMap<number, string>; sections: ModelSectionReport[]; notes: readonly string[] },
): SkillResult {
  const mod = skillOf(skill);
  const result = composeRewrite(
    { draft, retrievedDocs, searchedKinds: plannedKinds(mod.plan(inputs)), render: mod.render(inputs), model },
    outcome.accepted,
    outcome.sections,
    outcome.notes,
  );
  // What the draft says about the result itself (a release's status, its notes) holds whoever wrote the prose.
  const notes = [...new Set([...(draft.notes ?? []), ...(result.notes ?? [])])];
  return { ...result, ...(notes.length ? { notes } : {}), ...(draft.release ? { release: draft.release } : {}) };
}
