/**
 * Payloads between the skill-invocation workflow and its activities (types only: workflow-safe). The workflow's
 * own input is in its contract.
 */
import type { SkillResult } from '../skills/result';

export interface SkillContextRef {
  /** Where the retrieved documents were saved for the drafting step (kept out of workflow history). */
  contextId: string;
  fetched: number;
  /**
   * Who drafts, as the worker that retrieved saw its configuration: `model` needs the heartbeating (remote)
   * drafting activity; `deterministic` drafts as a local activity in the same workflow task. Absent in
   * histories recorded before local activities (treated as `model`: the remote activity decides itself).
   */
  drafter?: 'model' | 'deterministic';
}

export interface DraftOutcome {
  result: SkillResult;
  /**
   * Set by the local draft when a model will rewrite it: the draft is stored first (completed, a version that
   * is not final) and the rewrite follows, given `sections` × `sectionTimeoutMs` (LLM_TIMEOUT_MS) to run.
   */
  rewrite?: { sections: number; sectionTimeoutMs: number };
}

/** Which version of the result a store step writes: 1 is the first; `final: false` says another follows. */
export interface ResultRevision {
  number: number;
  final: boolean;
}

export interface ProgressUpdate {
  invocationId: string;
  seq: number;
  status: 'retrieving' | 'drafting' | 'failed' | 'cancelled';
  completedSteps: number;
  error: { code: string; message: string } | null;
}
