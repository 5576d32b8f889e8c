/** Payloads between the skill-invocation workflow and its activities (types only: workflow-safe). */
import type { SkillResult } from '../skills/result';
import type { SkillName } from '../skills/types';

export interface SkillInvocationInput {
  invocationId: string;
  project: string;
  skill: SkillName;
  inputs: Record<string, unknown>;
  /** ISO time the invocation was accepted: the drafters' "now", so a retried draft is byte-identical. */
  requestedAt: string;
  /**
   * How the document is drafted, decided when the invocation is accepted: `deterministic` runs retrieval and
   * drafting in one local activity (milliseconds, no model); `model` drafts in a heartbeating activity.
   * Absent in runs started before the field existed: treated as `model`, their original path.
   */
  drafting?: 'deterministic' | 'model';
}

export interface SkillContextRef {
  /** Where the retrieved documents were saved for the drafting step (kept out of workflow history). */
  contextId: string;
  fetched: number;
}

export interface DraftOutcome {
  result: SkillResult;
}

/** Sequence numbers for the two progress writes of the combined retrieve-and-draft step. */
export interface ComposeProgress {
  retrievingSeq: number;
  draftingSeq: number;
}

export interface ProgressUpdate {
  invocationId: string;
  seq: number;
  status: 'retrieving' | 'drafting' | 'failed' | 'cancelled';
  completedSteps: number;
  error: { code: string; message: string } | null;
}
