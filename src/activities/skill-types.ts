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
}

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
}

export interface ProgressUpdate {
  invocationId: string;
  seq: number;
  status: 'retrieving' | 'drafting' | 'failed' | 'cancelled';
  completedSteps: number;
  error: { code: string; message: string } | null;
}
