/**
 * The skills' single entry point for activities and workflows. Pure and deterministic: no I/O, no clock
 * (time comes in as `now`), so the same inputs and documents always give byte-identical results.
 *
 *   plan = retrievalPlan(skill, inputs)                    what to fetch (see retrieval-plan.ts)
 *   docs = for each step: resolveQueries(step, docs) → store → append
 *   draft = selectAndDraft(skill, inputs, docs, now)       the deterministic result
 *   with a model: buildLlmMessages(...) → model → acceptLlmAnswer(...) → its result, or the draft
 */
import { prepareDocuments } from './assemble';
import type { ProjectDocument } from './documents';
import { skillOf } from './catalog';
import type { SkillInputs } from './inputs';
import { acceptLlmAnswer as accept, type LlmVerdict } from './llm-answer';
import { buildPromptMessages, type ChatMessage } from './llm-prompt';
import type { SkillResult } from './result';
import { plannedKinds, type RetrievalPlan } from './retrieval-plan';
import type { SkillName } from './types';

export { validateBusinessRules, type BusinessRuleError, type ProjectFacts } from './business-rules';
export { checkResult, type Violation } from './check-result';
export type { LlmVerdict } from './llm-answer';
export type { ChatMessage } from './llm-prompt';

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
export function selectAndDraft<S extends SkillName>(skill: S, inputs: SkillInputs[S], fetchedDocs: readonly ProjectDocument[], now: string | Date): SkillResult {
  const mod = skillOf(skill);
  return mod.draft(inputs, prepareDocuments(fetchedDocs), plannedKinds(mod.plan(inputs)), isoNow(now));
}

/** The chat messages asking a model to rewrite `draft`; `retrievedDocs` may be everything fetched (only cited ones are sent). */
export function buildLlmMessages<S extends SkillName>(skill: S, inputs: SkillInputs[S], draft: SkillResult, retrievedDocs: readonly ProjectDocument[]): ChatMessage[] {
  return buildPromptMessages(skillOf(skill).instructions(inputs), inputs, draft, retrievedDocs);
}

/**
 * Turns a model's answer into a checked result with `generator: "llm:<model>"`, or the violations that
 * reject it (then use `draft`, adding a note).
 */
export function acceptLlmAnswer<S extends SkillName>(
  skill: S,
  inputs: SkillInputs[S],
  answerText: string,
  draft: SkillResult,
  retrievedDocs: readonly ProjectDocument[],
  model: string,
): LlmVerdict {
  const mod = skillOf(skill);
  return accept(answerText, { draft, retrievedDocs, searchedKinds: plannedKinds(mod.plan(inputs)), render: mod.render(inputs), model });
}
