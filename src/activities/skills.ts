import { retrievalPlan } from '../skills/run';
import { resolveQueries } from '../skills/retrieval-plan';
import type { ProjectDocument } from '../skills/documents';
import { TOTAL_STEPS } from '../skills/invocation-status';
import type { DepsOf } from './deps';
import { chatModelFromConfig, createDraftingActivity, rewritePlan } from './drafting';
import type { SkillInvocationInput } from '../contracts/workflows/skill-invocation';
import type { DraftOutcome, ProgressUpdate, ResultRevision, SkillContextRef } from './skill-types';

/** Retrieved documents kept in memory between the retrieval and the local drafting step of one invocation. */
const HANDOFF_ENTRIES = 16;

/**
 * I/O of the skill-invocation workflow: read the project's documents, draft (drafting.ts), write the record.
 * The workflow runs retrieval, the deterministic draft and the store step as local activities (in the
 * workflow task, on this worker) and a model draft as a remote, heartbeating activity.
 */
export function createSkillActivities(deps: DepsOf<'invocations' | 'documents' | 'invocationContexts', 'config' | 'logger'>) {
  // `documents` keeps the worker's cache of whole-kind reads (see createWorker).
  const { invocations, documents, invocationContexts: contexts } = deps.repos;
  const { now } = deps;
  const model = chatModelFromConfig(deps.config.llm);
  const draft = createDraftingActivity(deps, contexts, model);
  const draftDeterministic = createDraftingActivity(deps, contexts, null);
  // The local draft runs right after retrieval in the same workflow task on this worker, so it usually finds
  // the documents here; the store copy serves a draft that runs elsewhere (a retry after a crash).
  const handoff = new Map<string, ProjectDocument[]>();

  /** A terminal write that took effect: counted and timed by skill and status. */
  async function countFinished(invocationId: string, status: string): Promise<void> {
    if (!deps.metrics) return;
    const record = await invocations.timing(invocationId);
    if (record) deps.metrics.invocationFinished(record.skill, status, (now().getTime() - record.createdAt.getTime()) / 1000);
  }

  async function recordInvocationProgress(update: ProgressUpdate): Promise<void> {
    const written = await invocations.advance(
      update.invocationId,
      update.seq,
      {
        status: update.status,
        progress: { step: update.status, completedSteps: update.completedSteps, totalSteps: TOTAL_STEPS },
        ...(update.error ? { error: update.error } : {}),
        ...(update.status === 'failed' || update.status === 'cancelled' ? { completedAt: now() } : {}),
      },
      now(),
    );
    if (written && (update.status === 'failed' || update.status === 'cancelled')) await countFinished(update.invocationId, update.status);
  }

  const progressWrite = (
    invocationId: string,
    progress: { seq: number } | undefined,
    status: 'retrieving' | 'drafting',
    completedSteps: number,
  ) => (progress ? recordInvocationProgress({ invocationId, seq: progress.seq, status, completedSteps, error: null }) : Promise.resolve());

  async function retrieve(input: SkillInvocationInput): Promise<ProjectDocument[]> {
    const plan = retrievalPlan(input.skill, input.inputs as never);
    const fetched: ProjectDocument[] = [];
    for (const step of plan.steps) {
      const results = await Promise.all(resolveQueries(step, fetched).map((q) => documents.find(input.project, q)));
      fetched.push(...results.flat());
    }
    return fetched;
  }

  return {
    recordInvocationProgress,

    /** Marks the record `retrieving` (each step writes its own progress, beside its work: one activity, not two). */
    async retrieveSkillContext(input: SkillInvocationInput, progress?: { seq: number }): Promise<SkillContextRef> {
      const [fetched] = await Promise.all([retrieve(input), progressWrite(input.invocationId, progress, 'retrieving', 0)]);
      await contexts.save(input.invocationId, fetched, now());
      if (handoff.size >= HANDOFF_ENTRIES) handoff.delete(handoff.keys().next().value!);
      handoff.set(input.invocationId, fetched);
      return { contextId: input.invocationId, fetched: fetched.length, drafter: model ? 'model' : 'deterministic' };
    },

    /**
     * The remote drafting activity of runs recorded before the draft was stored first: may call the model
     * (heartbeating); marks the record `drafting`.
     */
    async draftSkillDocument(input: SkillInvocationInput, context: SkillContextRef, progress?: { seq: number }): Promise<DraftOutcome> {
      await progressWrite(input.invocationId, progress, 'drafting', 1);
      return draft(input, context);
    },

    /** The model's rewrite of the draft already stored (remote, heartbeating; the record stays as it is). */
    async rewriteSkillDraft(input: SkillInvocationInput, context: SkillContextRef): Promise<DraftOutcome> {
      return draft(input, context);
    },

    /**
     * The local drafting activity: the deterministic draft only, never a model call (it cannot heartbeat). With a
     * model configured it says how much a rewrite needs (`rewrite`), and the draft says that a rewrite follows.
     */
    async draftSkillDocumentLocally(
      input: SkillInvocationInput,
      context: SkillContextRef,
      progress: { seq: number },
    ): Promise<DraftOutcome> {
      const docs = handoff.get(context.contextId);
      handoff.delete(context.contextId);
      const [outcome] = await Promise.all([
        draftDeterministic(input, context, docs),
        progressWrite(input.invocationId, progress, 'drafting', 1),
      ]);
      const plan = context.drafter === 'model' ? rewritePlan(input, outcome.result, model, deps.config.llm.timeoutMs) : undefined;
      if (!plan) return outcome;
      const note = `This is the deterministic draft; the model's rewrite of ${plan.sections} section${plan.sections === 1 ? '' : 's'} follows as version 2 of this result.`;
      return { result: { ...outcome.result, notes: [...(outcome.result.notes ?? []), note] }, rewrite: plan };
    },

    /**
     * Stores a version of the result. Without `revision`, or version 1, the record becomes `completed`; a later
     * version replaces the result of the completed record. The retrieved documents are kept until the final one.
     */
    async storeSkillResult(args: {
      invocationId: string;
      seq: number;
      result: DraftOutcome['result'];
      revision?: ResultRevision;
    }): Promise<void> {
      const at = now();
      const revision = args.revision;
      const final = revision?.final !== false;
      const write =
        revision && revision.number > 1
          ? invocations.revise(args.invocationId, args.seq, args.result, revision, at)
          : invocations.advance(
              args.invocationId,
              args.seq,
              {
                status: 'completed',
                progress: { step: 'completed', completedSteps: TOTAL_STEPS, totalSteps: TOTAL_STEPS },
                result: args.result,
                completedAt: at,
                ...(revision ? { revision } : {}),
              },
              at,
            );
      const [written] = await Promise.all([write, final ? contexts.remove(args.invocationId) : Promise.resolve()]);
      handoff.delete(args.invocationId);
      if (written && (!revision || revision.number === 1)) await countFinished(args.invocationId, 'completed');
    },
  };
}
