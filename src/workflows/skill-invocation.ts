import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type { DraftOutcome, SkillInvocationInput } from '../activities/skill-types';

type Activities = ReturnType<typeof createActivities>;

// Short steps that need no heartbeat run as local activities: in the worker that runs the workflow task, one
// workflow task for all of them, instead of a trip through the task queue each (~35 ms apiece on a small
// machine). Each still has its own retry policy, and a worker lost mid-task has the task (and its local
// activities) run again elsewhere: every write they make is sequence-guarded or idempotent.

// Bookkeeping writes are cheap and must eventually land: retry them for as long as the workflow lives.
const { recordInvocationProgress, storeSkillResult } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '500ms', maximumInterval: '30s' },
});

// Retrieval reads the store: transient failures retry; a business error (unknown incident) does not. Without
// a model, the draft is computed in the same step (pure, milliseconds).
const { retrieveSkillContext, composeSkillDocument } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumAttempts: 5, nonRetryableErrorTypes: ['InvalidSkillInput'] },
});

// Drafting with a model is a regular activity: it heartbeats during the call, so a cancellation reaches it
// through a heartbeat's answer, and a worker that dies mid-call is noticed within the heartbeat timeout, not
// the 3 minutes. Rate limits and 5xx retry (after Retry-After when given); the last attempt falls back to the
// deterministic draft instead of failing, so maximumAttempts bounds how long a struggling model can hold an
// invocation.
const { draftSkillDocument } = proxyActivities<Activities>({
  startToCloseTimeout: '3m',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 4, nonRetryableErrorTypes: ['ContextLost'] },
});

export interface SkillInvocationOutcome {
  status: 'completed' | 'failed';
  generator?: string;
}

/**
 * retrieve → draft → store. Each step is an activity with its own timeout and retry policy; progress is
 * written to the invocation record, so clients can poll even while no worker runs. Deterministic and thin:
 * the skill logic lives in src/skills, the I/O in src/activities.
 */
export async function skillInvocation(input: SkillInvocationInput): Promise<SkillInvocationOutcome> {
  const { invocationId } = input;
  // A strictly increasing sequence number orders the record's writes even when an activity is retried late;
  // completedSteps counts the steps done (retrieve, draft, store), separately from it.
  let seq = 0;
  let completedSteps = 0;
  const record = (status: 'failed' | 'cancelled', error?: { code: string; message: string }) =>
    recordInvocationProgress({ invocationId, seq: ++seq, status, completedSteps, error: error ?? null });

  try {
    // Each step marks its own progress first, so the record moves without an extra activity per step.
    setCurrentDetails(`retrieving · ${input.skill} for ${input.project}`);
    let draft: DraftOutcome;
    if (input.drafting === 'deterministic') {
      const progress = { retrievingSeq: ++seq, draftingSeq: ++seq };
      draft = await composeSkillDocument(input, progress);
      completedSteps = 2;
    } else {
      const context = await retrieveSkillContext(input, { seq: ++seq });
      completedSteps = 1;
      setCurrentDetails(`drafting · ${context.fetched} documents retrieved`);
      draft = await draftSkillDocument(input, context, { seq: ++seq });
      completedSteps = 2;
    }

    await storeSkillResult({ invocationId, seq: ++seq, result: draft.result });
    completedSteps = 3;
    setCurrentDetails(`completed · ${draft.result.generator}`);
    return { status: 'completed', generator: draft.result.generator };
  } catch (err) {
    if (isCancellation(err)) {
      // The scope is cancelled; the final write must still happen.
      await CancellationScope.nonCancellable(() => record('cancelled'));
      setCurrentDetails('cancelled');
      throw err;
    }
    const failure = describeFailure(err);
    await record('failed', failure);
    setCurrentDetails(`failed · ${failure.code}`);
    return { status: 'failed' };
  }
}

function describeFailure(err: unknown): { code: string; message: string } {
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof ApplicationFailure) return { code: cause.type ?? 'activity_failed', message: cause.message };
  if (err instanceof ApplicationFailure) return { code: err.type ?? 'failed', message: err.message };
  return { code: 'internal_error', message: `The invocation failed (workflow ${workflowInfo().workflowId}); see the Temporal UI` };
}
