import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SkillInvocationInput } from '../activities/skill-types';
import { TEMPORAL_CALL_TIMEOUT_MS, isAlreadyStarted, isAmbiguous, isUnavailable, mapTemporalError } from '../api/temporal-errors';
import { findSkill } from '../skills/catalog';
import type { SkillName } from '../skills/types';
import type { InvocationRecord } from '../store/invocations';
import { SEARCH_ATTRIBUTES } from '../temporal';

export type StartOutcome = 'started' | 'not-started' | 'unknown';

/** The Temporal calls a start needs: the client, or a stand-in in tests. */
export type StartClient = Pick<Client, 'connection'> & { workflow: Pick<Client['workflow'], 'start' | 'getHandle'> };

/**
 * Starts an invocation record's workflow; a run that already exists with its id counts as started, so this is
 * safe to repeat. When the start fails in a way that may still have reached Temporal (its deadline passed, the
 * call was cancelled), Temporal is asked whether the run exists: `unknown` when even that cannot be answered,
 * in which case the caller must keep the record (never free its Idempotency-Key: a retry would start a second
 * run next to one that may be running).
 */
export async function startInvocationWorkflow(client: StartClient, taskQueue: string, record: InvocationRecord, drafting: SkillInvocationInput['drafting']): Promise<StartOutcome> {
  const input: SkillInvocationInput = {
    invocationId: record._id,
    project: record.project,
    skill: record.skill as SkillName,
    inputs: record.inputs,
    requestedAt: record.createdAt.toISOString(),
    drafting,
  };
  try {
    await client.connection.withDeadline(Date.now() + TEMPORAL_CALL_TIMEOUT_MS, () =>
      client.workflow.start('skillInvocation', {
        taskQueue,
        workflowId: record.workflowId,
        args: [input],
        typedSearchAttributes: [
          { key: SEARCH_ATTRIBUTES.Project, value: record.project },
          { key: SEARCH_ATTRIBUTES.Skill, value: record.skill },
        ],
        staticSummary: `${findSkill(record.skill)?.title ?? record.skill} for ${record.project}: ${summarizeInputs(record.inputs)}`,
      }),
    );
    return 'started';
  } catch (err) {
    if (isAlreadyStarted(err)) return 'started';
    if (!isAmbiguous(err)) {
      if (isUnavailable(err)) return 'not-started';
      throw mapTemporalError(err, `Invocation ${record._id}`);
    }
    try {
      await client.connection.withDeadline(Date.now() + TEMPORAL_CALL_TIMEOUT_MS, () => client.workflow.getHandle(record.workflowId).describe());
      return 'started';
    } catch (describeErr) {
      return describeErr instanceof WorkflowNotFoundError ? 'not-started' : 'unknown';
    }
  }
}

function summarizeInputs(inputs: Record<string, unknown>): string {
  return Object.entries(inputs)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? `[${v.length}]` : String(v)}`)
    .join(', ')
    .slice(0, 200);
}
