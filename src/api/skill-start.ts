import type { Client } from '@temporalio/client';
import type { SkillInvocationInput } from '../activities/skill-types';
import type { SkillName } from '../skills/types';
import type { InvocationRecord } from '../store/invocations';
import { SEARCH_ATTRIBUTES } from '../temporal';
import { TEMPORAL_CALL_TIMEOUT_MS, isAlreadyStarted } from './temporal-errors';

/**
 * Starting a skill's workflow, idempotently: the workflow id is the invocation's, a second start of a running
 * one attaches to it (conflict policy USE_EXISTING) and a start after it closed is refused (reuse policy
 * REJECT_DUPLICATE, "already started"), so however often a start is repeated there is one run per invocation.
 */
export type StartOutcome =
  /** `eager`: the server handed the first workflow task straight to the worker in this process. */
  | { kind: 'started'; eager: boolean }
  /** The server refused, or the request never left this process: nothing runs. */
  | { kind: 'rejected'; error: unknown }
  /** Neither confirmed nor refused (a timeout, a connection lost mid-call): a run may exist. */
  | { kind: 'unconfirmed'; error: unknown };

// gRPC codes with which the server refuses a request before acting on it.
const REFUSED = new Set<number>([
  3, // INVALID_ARGUMENT
  5, // NOT_FOUND (namespace)
  7, // PERMISSION_DENIED
  8, // RESOURCE_EXHAUSTED (rate limited)
  9, // FAILED_PRECONDITION
  11, // OUT_OF_RANGE
  12, // UNIMPLEMENTED
  16, // UNAUTHENTICATED
]);
const UNAVAILABLE = 14;

/**
 * Whether a failed start certainly started nothing. CANCELLED and DEADLINE_EXCEEDED say only that this side
 * stopped waiting: the server may have created the run. UNAVAILABLE is certain only when no connection was
 * ever made (grpc-js: "No connection established"); a connection lost mid-call may have delivered it.
 */
export function classifyStartFailure(err: unknown): 'rejected' | 'unconfirmed' {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'number') continue;
    if (REFUSED.has(code)) return 'rejected';
    const details = String((e as { details?: unknown }).details ?? (e as { message?: unknown }).message ?? '');
    if (code === UNAVAILABLE && /^No connection established/.test(details)) return 'rejected';
    return 'unconfirmed';
  }
  return 'unconfirmed';
}

/** The workflow input an invocation record stands for (the same on every start of it). */
export function inputOf(record: InvocationRecord): SkillInvocationInput {
  return { invocationId: record._id, project: record.project, skill: record.skill as SkillName, inputs: record.inputs, requestedAt: record.createdAt.toISOString() };
}

export interface SkillStarter {
  /** The API's client; used for the confirming retry and whenever no eager starter is set. */
  client: Client;
  /** A client on the NativeConnection of a worker in this process (eager start), when there is one. */
  starter?: Client | null;
  taskQueue: string;
}

export async function startSkillWorkflow(s: SkillStarter, record: InvocationRecord, summary: string): Promise<StartOutcome> {
  const once = (client: Client, eager: boolean) =>
    client.connection.withDeadline(Date.now() + TEMPORAL_CALL_TIMEOUT_MS, () =>
      client.workflow.start('skillInvocation', {
        taskQueue: s.taskQueue,
        workflowId: record.workflowId,
        args: [inputOf(record)],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        // The server hands the first workflow task straight back to the worker sharing this connection.
        requestEagerStart: eager,
        typedSearchAttributes: [
          { key: SEARCH_ATTRIBUTES.Project, value: record.project },
          { key: SEARCH_ATTRIBUTES.Skill, value: record.skill },
        ],
        staticSummary: summary,
      }),
    );
  const attempt = async (client: Client, eager: boolean): Promise<StartOutcome> => {
    try {
      const handle = await once(client, eager);
      return { kind: 'started', eager: handle.eagerlyStarted };
    } catch (err) {
      if (isAlreadyStarted(err)) return { kind: 'started', eager: false };
      return { kind: classifyStartFailure(err), error: err };
    }
  };
  const first = s.starter ? await attempt(s.starter, true) : await attempt(s.client, false);
  if (first.kind !== 'unconfirmed') return first;
  // Asked again: the repeat finds the run if the first call created one, or creates it. If the repeat fails
  // too, even with a refusal, the first call may still have landed: the outcome stays unconfirmed.
  const again = await attempt(s.client, false);
  return again.kind === 'started' ? again : { kind: 'unconfirmed', error: again.error };
}
