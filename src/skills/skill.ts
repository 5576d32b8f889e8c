/**
 * A skill as one object: its catalog entry (name, version, title, description, input schema, output
 * sections, retrieval scope) and what run.ts needs to execute it (retrieval plan, drafter, layout and
 * instructions for a model). Each skill folder exports one; catalog.ts lists them.
 */
import type { ProjectDocument } from './documents';
import type { ResultSection, SkillResult } from './result';
import type { RetrievalPlan } from './retrieval-plan';
import type { DocumentKind, SkillDefinition } from './types';

export type Renderer = (title: string, sections: readonly ResultSection[]) => string;

export interface Skill<I> extends SkillDefinition {
  plan(inputs: I): RetrievalPlan;
  /** Selects among prepared documents (canonical order, no repeats) and drafts the result. */
  draft(inputs: I, documents: readonly ProjectDocument[], searchedKinds: readonly DocumentKind[], now: string): SkillResult;
  render(inputs: I): Renderer;
  instructions(inputs: I): string;
}
