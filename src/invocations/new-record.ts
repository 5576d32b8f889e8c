import { ulid } from 'ulid';
import { TOTAL_STEPS, type InvocationRecord } from '../store/invocations';

export const newInvocationId = () => `inv_${ulid()}`;

export const skillWorkflowId = (project: string, id: string) => `skill/${project}/${id}`;

/** A new invocation's record, queued: written before its workflow starts, so a client can poll at once. */
export function newInvocationRecord(args: { id: string; project: string; skill: string; inputs: Record<string, unknown>; requestedBy: string; now: Date }): InvocationRecord {
  return {
    _id: args.id,
    project: args.project,
    skill: args.skill,
    inputs: args.inputs,
    status: 'queued',
    progress: { step: 'queued', completedSteps: 0, totalSteps: TOTAL_STEPS },
    createdAt: args.now,
    updatedAt: args.now,
    completedAt: null,
    result: null,
    error: null,
    workflowId: skillWorkflowId(args.project, args.id),
    requestedBy: args.requestedBy,
    seq: 0,
  };
}
