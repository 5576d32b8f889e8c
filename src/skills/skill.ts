/**
 * A skill as one object: its catalog entry (name, version, title, description, input schema, output
 * sections, retrieval scope), the rules its inputs must meet against the project's data (business-rules.ts)
 * and what run.ts needs to execute it (retrieval plan, drafter, layout and instructions for a model). Each skill folder exports one; catalog.ts lists them.
 */
import type { ProjectDocument } from './documents';
import type { ResultSection, SkillResult } from './result';
import type { RetrievalPlan } from './retrieval-plan';
import type { DocumentKind, SkillDefinition } from './types';

export interface ProjectFacts {
  /** Versions of the project's releases ("1.2.0"; a leading "v" is accepted). */
  releaseVersions: readonly string[];
  /** Incident ids found in the project: the requested one, or none. */
  incidentIds: readonly string[];
}

export interface BusinessRuleError {
  /** JSON pointer to the offending input, as in the API's `errors[]`. */
  path: string;
  message: string;
}

export type Renderer = (title: string, sections: readonly Pick<ResultSection, 'heading' | 'markdown'>[]) => string;

export interface Skill<I> extends SkillDefinition {
  /** The 422 cases of these inputs given the project's facts (see business-rules.ts); empty when they can be served. */
  rules(inputs: I, facts: Partial<ProjectFacts>): BusinessRuleError[];
  plan(inputs: I): RetrievalPlan;
  /** Selects among prepared documents (canonical order, no repeats) and drafts the result. */
  draft(inputs: I, documents: readonly ProjectDocument[], searchedKinds: readonly DocumentKind[], now: string): SkillResult;
  render(inputs: I): Renderer;
  instructions(inputs: I): string;
  /** Phrases a rewrite must keep with the claims the draft puts them with (a proposal's pain points). */
  anchors?(inputs: I): readonly string[];
  /** Sections a model is never asked to rewrite: lists of facts with no prose to improve. */
  fixedSections?: readonly string[];
}
