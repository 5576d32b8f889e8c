import type { InvocationRecord } from '../../store/invocations';

/**
 * The `GET …/invocations/{id}` body of an invocation record (its polling, waiting and streaming answers alike).
 * `workflowUrl`: its workflow in the Temporal UI, given by the list and the read to those who may follow it.
 */
export function presentInvocation(r: InvocationRecord, workflowUrl?: string | null) {
  return {
    id: r._id,
    project: r.project,
    skill: r.skill,
    inputs: r.inputs,
    status: r.status,
    progress: r.progress,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    completedAt: r.completedAt,
    result: r.result,
    error: r.error,
    workflowId: r.workflowId,
    requestedBy: r.requestedBy,
    generator: (r.result as { generator?: string } | null)?.generator ?? null,
    durationMs: r.completedAt ? r.completedAt.getTime() - r.createdAt.getTime() : null,
    // Which version of the result this is, and whether another follows (the model's rewrite after the draft).
    revision: r.revision ?? (r.status === 'completed' ? { number: 1, final: true } : null),
    links: { self: `/v1/agents/${r.project}/invocations/${r._id}`, cancel: `/v1/agents/${r.project}/invocations/${r._id}/cancel` },
    ...(workflowUrl === undefined ? {} : { workflowUrl }),
  };
}
