import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  workflowInfo,
} from '@temporalio/workflow';
import type { RetryPolicy } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type { DraftOutcome } from '../activities/skill-types';
import type { SkillInvocationInput, SkillInvocationOutcome } from '../contracts/workflows/skill-invocation';

type Activities = ReturnType<typeof createActivities>;

/**
 * Runs started before this patch ran every step as a remote activity; their histories replay on that path.
 * New runs take the local one.
 */
export const LOCAL_STEPS_PATCH = 'skill-steps-as-local-activities';

/**
 * With a model configured, runs started before this patch drafted and rewrote in one remote activity and stored
 * once; new runs store the deterministic draft first (completed, version 1, not final), then ask the model in an
 * activity given LLM_TIMEOUT_MS per section, and store its result as version 2.
 */
export const DRAFT_FIRST_PATCH = 'skill-draft-first-then-model-rewrite';

/** Time an activity that rewrites N sections gets beyond N × LLM_TIMEOUT_MS: reading the store, checking, answering. */
const REWRITE_MARGIN_MS = 30_000;

// Remote activities: each a round trip through the task queue. Only the model draft needs one now (it
// heartbeats); the others are kept for runs recorded before the patch.

// Bookkeeping writes are cheap and must eventually land: retry them for as long as the workflow lives.
const { recordInvocationProgress } = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '500ms', maximumInterval: '30s' },
});

// Retrieval reads the store: transient failures retry; a business error (unknown incident) does not.
const { retrieveSkillContext } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', maximumAttempts: 5, nonRetryableErrorTypes: ['InvalidSkillInput'] },
});

// Drafting may call a model. It heartbeats during the call: a cancellation reaches it through a heartbeat's
// answer, and a worker that dies mid-call is noticed within the heartbeat timeout, not the 3 minutes.
// Rate limits and 5xx retry (after Retry-After when given); the last attempt falls back to the deterministic
// draft instead of failing, so maximumAttempts bounds how long a struggling model can hold an invocation.
const MODEL_RETRY: RetryPolicy = {
  initialInterval: '2s',
  backoffCoefficient: 2,
  maximumInterval: '1m',
  maximumAttempts: 4,
  nonRetryableErrorTypes: ['ContextLost'],
};
const { draftSkillDocument } = proxyActivities<Activities>({ startToCloseTimeout: '3m', heartbeatTimeout: '10s', retry: MODEL_RETRY });

const { storeSkillResult } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '500ms', maximumInterval: '30s' },
});

// Local activities: short steps that need no heartbeat run in the workflow task on the worker that holds
// it, so one workflow task runs several of them. Each keeps its own timeout and retry policy; a worker that
// dies mid-step loses the task, and the next worker replays what was recorded and runs the rest again
// (every step is idempotent: sequence-guarded record writes, a context saved under the invocation's id).
const local = {
  recordInvocationProgress: proxyLocalActivities<Activities>({
    startToCloseTimeout: '10s',
    retry: { initialInterval: '500ms', maximumInterval: '30s' },
  }).recordInvocationProgress,
  retrieveSkillContext: proxyLocalActivities<Activities>({
    startToCloseTimeout: '30s',
    retry: { initialInterval: '1s', maximumAttempts: 5, nonRetryableErrorTypes: ['InvalidSkillInput'] },
  }).retrieveSkillContext,
  draftSkillDocumentLocally: proxyLocalActivities<Activities>({
    startToCloseTimeout: '30s',
    retry: { initialInterval: '1s', maximumAttempts: 5, nonRetryableErrorTypes: ['ContextLost'] },
  }).draftSkillDocumentLocally,
  storeSkillResult: proxyLocalActivities<Activities>({
    startToCloseTimeout: '30s',
    retry: { initialInterval: '500ms', maximumInterval: '30s' },
  }).storeSkillResult,
};

/**
 * retrieve → draft → store. Retrieval, the store step, progress writes and a deterministic draft are local
 * activities (one workflow task runs them all); a model draft is a remote activity that heartbeats, so it
 * can be cancelled mid-call and is retried elsewhere when its worker dies. Progress is written to the
 * invocation record, so clients can poll even while no worker runs. Deterministic and thin: the skill logic
 * lives in src/skills, the I/O in src/activities.
 */
export async function skillInvocation(input: SkillInvocationInput): Promise<SkillInvocationOutcome> {
  const { invocationId } = input;
  const steps = patched(LOCAL_STEPS_PATCH)
    ? { retrieve: local.retrieveSkillContext, store: local.storeSkillResult, record: local.recordInvocationProgress }
    : { retrieve: retrieveSkillContext, store: storeSkillResult, record: recordInvocationProgress };
  // A strictly increasing sequence number orders the record's writes even when an activity is retried late;
  // it counts writes, not steps: `completed` counts the steps (SKILL_STEPS) that have finished.
  let seq = 0;
  let completed = 0;
  const record = (status: 'failed' | 'cancelled', completedSteps: number, error?: { code: string; message: string }) =>
    steps.record({ invocationId, seq: ++seq, status, completedSteps, error: error ?? null });

  try {
    // Each step marks its own progress, so the record moves without an extra activity per step.
    setCurrentDetails(`retrieving · ${input.skill} for ${input.project}`);
    const context = await steps.retrieve(input, { seq: ++seq });
    completed += 1;

    setCurrentDetails(`drafting · ${context.fetched} documents retrieved`);
    if (context.drafter !== 'deterministic' && !patched(DRAFT_FIRST_PATCH)) {
      const draft = await draftSkillDocument(input, context, { seq: ++seq });
      completed += 1;
      await steps.store({ invocationId, seq: ++seq, result: draft.result });
      setCurrentDetails(`completed · ${draft.result.generator}`);
      return { status: 'completed', generator: draft.result.generator };
    }
    const draft = await local.draftSkillDocumentLocally(input, context, { seq: ++seq });
    completed += 1;
    if (!draft.rewrite) {
      await steps.store({ invocationId, seq: ++seq, result: draft.result });
      setCurrentDetails(`completed · ${draft.result.generator}`);
      return { status: 'completed', generator: draft.result.generator };
    }
    // The draft is the answer until the model's rewrite replaces it: a caller waiting for the invocation gets it now.
    await local.storeSkillResult({ invocationId, seq: ++seq, result: draft.result, revision: { number: 1, final: false } });
    setCurrentDetails(`completed · draft stored; the model rewrites ${draft.rewrite.sections} sections`);
    const final = await rewriteAfterDraft(input, context, draft as Required<DraftOutcome>, () => ++seq);
    setCurrentDetails(`completed · ${final.generator}`);
    return { status: 'completed', generator: final.generator };
  } catch (err) {
    if (isCancellation(err)) {
      // The scope is cancelled; the final write must still happen.
      await CancellationScope.nonCancellable(() => record('cancelled', completed));
      setCurrentDetails('cancelled');
      throw err;
    }
    const failure = describeFailure(err);
    await record('failed', completed, failure);
    setCurrentDetails(`failed · ${failure.code}`);
    return { status: 'failed' };
  }
}

/**
 * The model's rewrite of a draft already stored as version 1, stored as version 2. Its activity gets
 * LLM_TIMEOUT_MS per section (the time budget is per section, not shared); the activity falls back to the draft
 * by itself, so reaching the catch means it could not run at all: the draft becomes final with a note. A
 * cancellation stores the draft as final too, then ends the run cancelled.
 */
async function rewriteAfterDraft(
  input: SkillInvocationInput,
  context: Parameters<Activities['rewriteSkillDraft']>[1],
  draft: Required<DraftOutcome>,
  nextSeq: () => number,
): Promise<DraftOutcome['result']> {
  const { rewriteSkillDraft } = proxyActivities<Activities>({
    startToCloseTimeout: draft.rewrite.sections * draft.rewrite.sectionTimeoutMs + REWRITE_MARGIN_MS,
    heartbeatTimeout: '10s',
    retry: MODEL_RETRY,
  });
  const storeFinal = (result: DraftOutcome['result']) =>
    local.storeSkillResult({ invocationId: input.invocationId, seq: nextSeq(), result, revision: { number: 2, final: true } });
  const withNote = (note: string) => ({
    ...draft.result,
    notes: [...(draft.result.notes ?? []).filter((n) => !n.startsWith('This is the deterministic draft; ')), note],
  });
  try {
    const rewritten = await rewriteSkillDraft(input, context);
    await storeFinal(rewritten.result);
    return rewritten.result;
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() =>
        storeFinal(withNote("The model's rewrite was cancelled. This is the deterministic draft.")),
      );
      throw err;
    }
    const result = withNote(`The model's rewrite could not run (${describeFailure(err).message}). This is the deterministic draft.`);
    await storeFinal(result);
    return result;
  }
}

function describeFailure(err: unknown): { code: string; message: string } {
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof ApplicationFailure) return { code: cause.type ?? 'activity_failed', message: cause.message };
  if (err instanceof ApplicationFailure) return { code: err.type ?? 'failed', message: err.message };
  return { code: 'internal_error', message: `The invocation failed (workflow ${workflowInfo().workflowId}); see the Temporal UI` };
}
