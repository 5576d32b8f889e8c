/** What run.ts needs from each skill: its plan, its drafter, its layout and its instructions for a model. */
import type { ProjectDocument } from './documents';
import type { ResultSection, SkillResult } from './result';
import type { RetrievalPlan } from './retrieval-plan';
import type { DocumentKind } from './types';

export type Renderer = (title: string, sections: readonly ResultSection[]) => string;

export interface SkillModule<I> {
  plan(inputs: I): RetrievalPlan;
  /** Selects among prepared documents (canonical order, no repeats) and drafts the result. */
  draft(inputs: I, documents: readonly ProjectDocument[], searchedKinds: readonly DocumentKind[], now: string): SkillResult;
  render(inputs: I): Renderer;
  instructions(inputs: I): string;
}
