import { retrievalPlan } from '../skills/run';
import { resolveQueries } from '../skills/retrieval-plan';
import type { ProjectDocument } from '../skills/documents';
import { DocumentRepository, WholeKindCache } from '../store/documents';
import { InvocationContextRepository } from '../store/invocation-contexts';
import { InvocationRepository, TOTAL_STEPS } from '../store/invocations';
import type { ActivityDeps } from './deps';
import { chatModelFromConfig, createDraftingActivity } from './drafting';
import type { ComposeProgress, DraftOutcome, ProgressUpdate, SkillContextRef, SkillInvocationInput } from './skill-types';
import { selectAndDraft } from '../skills/run';

/** I/O of the skill-invocation workflow: read the project's documents, draft (drafting.ts), write the record. */
export function createSkillActivities(deps: ActivityDeps) {
  const invocations = new InvocationRepository(deps.db);
  // One cache per worker process: a proposal reads its whole evidence library, which changes rarely.
  const documents = new DocumentRepository(deps.db, new WholeKindCache());
  const contexts = new InvocationContextRepository(deps.db);
  const now = deps.now ?? (() => new Date());

  const draft = createDraftingActivity(deps, contexts, chatModelFromConfig(deps.config.llm));

  async function recordInvocationProgress(update: ProgressUpdate): Promise<void> {
    await invocations.advance(
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
  }

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

    /** Marks the record `retrieving` (each step writes its own progress: one activity, not two). */
    async retrieveSkillContext(input: SkillInvocationInput, progress?: { seq: number }): Promise<SkillContextRef> {
      if (progress) await recordInvocationProgress({ invocationId: input.invocationId, seq: progress.seq, status: 'retrieving', completedSteps: 0, error: null });
      const fetched = await retrieve(input);
      await contexts.save(input.invocationId, fetched, now());
      return { contextId: input.invocationId, fetched: fetched.length };
    },

    /**
     * Retrieval and the deterministic draft in one step (a local activity): drafting without a model is pure
     * and takes milliseconds, so the retrieved documents never leave memory. Both progress writes still land,
     * so a poller sees `retrieving` and `drafting` as before.
     */
    async composeSkillDocument(input: SkillInvocationInput, progress: ComposeProgress): Promise<DraftOutcome & { fetched: number }> {
      await recordInvocationProgress({ invocationId: input.invocationId, seq: progress.retrievingSeq, status: 'retrieving', completedSteps: 0, error: null });
      const fetched = await retrieve(input);
      await recordInvocationProgress({ invocationId: input.invocationId, seq: progress.draftingSeq, status: 'drafting', completedSteps: 1, error: null });
      return { result: selectAndDraft(input.skill, input.inputs as never, fetched, input.requestedAt), fetched: fetched.length };
    },

    async draftSkillDocument(input: SkillInvocationInput, context: SkillContextRef, progress?: { seq: number }): Promise<DraftOutcome> {
      if (progress) await recordInvocationProgress({ invocationId: input.invocationId, seq: progress.seq, status: 'drafting', completedSteps: 1, error: null });
      return draft(input, context);
    },

    async storeSkillResult(args: { invocationId: string; seq: number; result: DraftOutcome['result'] }): Promise<void> {
      const at = now();
      await invocations.advance(
        args.invocationId,
        args.seq,
        { status: 'completed', progress: { step: 'completed', completedSteps: TOTAL_STEPS, totalSteps: TOTAL_STEPS }, result: args.result, completedAt: at },
        at,
      );
      await contexts.remove(args.invocationId);
    },
  };
}
