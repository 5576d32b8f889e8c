/**
 * The contract of the `skillInvocation` workflow (see contract.ts), for whoever starts or follows it (the API,
 * the CLI, the activities that write progress): its id, its input and outcome (its steps are the invocation's,
 * in src/skills/invocation-status.ts). No signals or queries: clients follow the invocation record, and cancel
 * through Temporal.
 */
import type { SkillName } from '../../skills/types';
import type { WorkflowContract } from './contract';

/** The workflow of an invocation: readable in the Temporal UI, and unique per invocation. */
export const skillWorkflowId = (project: string, invocationId: string) => `skill/${project}/${invocationId}`;

export interface SkillInvocationInput {
  invocationId: string;
  project: string;
  skill: SkillName;
  inputs: Record<string, unknown>;
  /** ISO time the invocation was accepted: the drafters' "now", so a retried draft is byte-identical. */
  requestedAt: string;
}

export interface SkillInvocationOutcome {
  status: 'completed' | 'failed';
  generator?: string;
}

/** The workflow's signature, for typed starts by name. */
export type SkillInvocationWorkflow = (input: SkillInvocationInput) => Promise<SkillInvocationOutcome>;

export const skillInvocationContract = {
  name: 'skillInvocation',
  workflowId: skillWorkflowId,
  signals: {},
  queries: {},
} as const satisfies WorkflowContract<[string, string]>;
