/**
 * The skill-invocation workflow's client: the only code that starts it, cancels it or waits for it. Starts are
 * idempotent (see startInvocationWorkflow); everything is typed by the workflow's contract.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import {
  skillInvocationContract,
  type SkillInvocationInput,
  type SkillInvocationWorkflow,
} from '../../contracts/workflows/skill-invocation';
import { TEMPORAL_CALL_TIMEOUT_MS, isAlreadyStarted } from '../failures';
import { findSkill } from '../../skills/catalog';
import { SEARCH_ATTRIBUTES } from '../../contracts/workflows/search-attributes';
import { tenantPriority } from '../fairness';

export type StartOutcome =
  /** `eager`: the server handed the first workflow task straight to the worker sharing the starter's connection. */
  | { kind: 'started'; eager: boolean }
  /** Certainly nothing runs: the server refused, or the request never left this process. */
  | { kind: 'not-started'; error: unknown }
  /** Neither confirmed nor refused (a timeout, a connection lost mid-call): a run may exist. Keep the record. */
  | { kind: 'unknown'; error: unknown };

/** The Temporal calls a start needs: the client, or a stand-in in tests. */
export type StartClient = Pick<Client, 'connection'> & { workflow: Pick<Client['workflow'], 'start'> };

/**
 * Starts an invocation's workflow, idempotently: the workflow id is the invocation's, a second start of
 * a running one attaches to it (conflict policy USE_EXISTING) and a start after it closed is refused as
 * "already started" (reuse policy REJECT_DUPLICATE), so however often a start is repeated, by this call or by
 * a retry with the same Idempotency-Key, there is one run per invocation. A start that may have reached
 * Temporal without an answer is asked again at once: the repeat finds the run or creates it.
 *
 * `eagerClient`: a client on the NativeConnection of a worker in this process (src/worker/in-api.ts); the
 * first attempt goes through it with eager start.
 */
export async function startInvocationWorkflow(
  client: StartClient,
  taskQueue: string,
  run: { workflowId: string; input: SkillInvocationInput },
  opts: { eagerClient?: StartClient | null } = {},
): Promise<StartOutcome> {
  const { input } = run;
  const attempt = async (via: StartClient, eager: boolean): Promise<StartOutcome> => {
    try {
      const handle = await via.connection.withDeadline(Date.now() + TEMPORAL_CALL_TIMEOUT_MS, () =>
        via.workflow.start<SkillInvocationWorkflow>(skillInvocationContract.name, {
          taskQueue,
          workflowId: run.workflowId,
          args: [input],
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          // The server answers with the first workflow task, for the worker sharing this connection.
          requestEagerStart: eager,
          typedSearchAttributes: [
            { key: SEARCH_ATTRIBUTES.Project, value: input.project },
            { key: SEARCH_ATTRIBUTES.Skill, value: input.skill },
          ],
          staticSummary: `${findSkill(input.skill)?.title ?? input.skill} for ${input.project}: ${summarizeInputs(input.inputs)}`,
          // The project is the skills queue's fairness key: one project's burst waits mostly on itself.
          priority: tenantPriority(`project:${input.project}`),
        }),
      );
      return { kind: 'started', eager: handle.eagerlyStarted === true };
    } catch (err) {
      if (isAlreadyStarted(err)) return { kind: 'started', eager: false };
      return classifyStartFailure(err) === 'refused' ? { kind: 'not-started', error: err } : { kind: 'unknown', error: err };
    }
  };
  const first = opts.eagerClient ? await attempt(opts.eagerClient, true) : await attempt(client, false);
  if (first.kind !== 'unknown') return first;
  // If the repeat fails too, even with a refusal, the first call may still have landed: still unknown.
  const again = await attempt(client, false);
  return again.kind === 'started' ? again : { kind: 'unknown', error: again.error };
}

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
/** UNAVAILABLE before any connection was made (grpc-js: "No connection established"; a refused connect). */
const NEVER_CONNECTED = /^No connection established|ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|Name resolution failed/;

/**
 * Whether a failed start certainly started nothing. CANCELLED and DEADLINE_EXCEEDED say only that this side
 * stopped waiting: the server may have created the run. UNAVAILABLE is certain only when no connection was
 * made; a connection lost mid-call may have delivered the request. Anything else without a gRPC status
 * (a native transport error) is uncertain too.
 */
export function classifyStartFailure(err: unknown): 'refused' | 'uncertain' {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'number') continue;
    if (REFUSED.has(code)) return 'refused';
    const details = String((e as { details?: unknown }).details ?? (e as { message?: unknown }).message ?? '');
    return code === UNAVAILABLE && NEVER_CONNECTED.test(details) ? 'refused' : 'uncertain';
  }
  return 'uncertain';
}

function summarizeInputs(inputs: Record<string, unknown>): string {
  return Object.entries(inputs)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? `[${v.length}]` : String(v)}`)
    .join(', ')
    .slice(0, 200);
}

/** The run of an invocation, to cancel it, wait for it or describe it (by the record's workflow id). */
export function invocationRun(client: Pick<Client, 'workflow'>, workflowId: string): WorkflowHandle<SkillInvocationWorkflow> {
  return client.workflow.getHandle<SkillInvocationWorkflow>(workflowId);
}
