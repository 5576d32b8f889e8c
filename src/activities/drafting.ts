import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Config } from '../config';
import { createChatModel, type ChatModel } from '../llm/chat-client';
import { afterModelFailure, rejectedAnswerNote } from '../llm/model-failure';
import type { ProjectDocument } from '../skills/documents';
import type { SkillResult } from '../skills/result';
import { acceptLlmAnswer, buildLlmMessages, selectAndDraft } from '../skills/run';
import type { InvocationContextRepository } from '../store/invocation-contexts';
import type { ActivityDeps } from './deps';
import type { DraftOutcome, SkillContextRef, SkillInvocationInput } from './skill-types';

/** Time left in an attempt after the model call, for checking the answer and returning it. */
const AFTER_MODEL_MARGIN_MS = 5_000;
const MIN_MODEL_TIMEOUT_MS = 1_000;

export function chatModelFromConfig(llm: Config['llm']): ChatModel | null {
  return llm.baseUrl && llm.model ? createChatModel({ baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: llm.model, timeoutMs: llm.timeoutMs }) : null;
}

/**
 * The drafting step: the deterministic draft always; with a model configured, the model's rewrite when it
 * passes the checks. A failed check, a timeout or the last failed attempt gives the draft and a note.
 */
export function createDraftingActivity(deps: ActivityDeps, contexts: InvocationContextRepository, model: ChatModel | null) {
  /** `retrieved`: the documents when the caller already holds them (the local path), else read from the store. */
  return async function draftSkillDocument(input: SkillInvocationInput, context: SkillContextRef, retrieved?: ProjectDocument[]): Promise<DraftOutcome> {
    const docs = retrieved ?? (await contexts.load(context.contextId));
    if (!docs) {
      throw ApplicationFailure.create({ type: 'ContextLost', message: 'retrieved documents are missing; retrieval must run again' });
    }
    const inputs = input.inputs as never;
    const draft = selectAndDraft(input.skill, inputs, docs, input.requestedAt);
    if (!model) return { result: draft };

    const activity = Context.current();
    const log = deps.logger.child({ invocationId: input.invocationId, skill: input.skill, attempt: activity.info.attempt, model: model.model });
    let answer: string;
    try {
      answer = await whileHeartbeating(activity, () =>
        model.complete(buildLlmMessages(input.skill, inputs, draft, docs), {
          signal: activity.cancellationSignal,
          timeoutMs: modelTimeout(activity, deps.config.llm.timeoutMs),
        }),
      );
    } catch (err) {
      // Cancelled or the worker is shutting down: Temporal decides what happens next, not the fallback.
      if (activity.cancellationSignal.aborted) throw err;
      const outcome = afterModelFailure(err, activity.info.attempt, activity.info.retryPolicy?.maximumAttempts);
      // A model failure is expected weather, not a bug: its type and message say enough, a stack would not.
      const failure = err instanceof ApplicationFailure ? { type: err.type, message: err.message, cause: err.cause?.message } : err;
      log.warn({ err: failure, retry: outcome.retry }, 'model call failed');
      if (outcome.retry) throw err;
      return { result: withNote(draft, outcome.note) };
    }
    const verdict = acceptLlmAnswer(input.skill, inputs, answer, draft, docs, model.model);
    if (verdict.ok) return { result: verdict.result };
    log.warn({ violations: verdict.violations.slice(0, 10) }, "model's answer failed the checks; using the deterministic draft");
    return { result: withNote(draft, rejectedAnswerNote(verdict.violations)) };
  };
}

function withNote(draft: SkillResult, note: string): SkillResult {
  return { ...draft, generator: 'deterministic', notes: [...(draft.notes ?? []), note] };
}

/** The configured timeout, shortened so the attempt's own start-to-close timeout never cuts the fallback off. */
function modelTimeout(activity: Context, configuredMs: number): number {
  const attemptMs = activity.info.startToCloseTimeoutMs;
  return attemptMs > 0 ? Math.max(MIN_MODEL_TIMEOUT_MS, Math.min(configuredMs, attemptMs - AFTER_MODEL_MARGIN_MS)) : configuredMs;
}

/** Heartbeats while `work` runs: a cancellation reaches an activity only through a heartbeat's answer. */
async function whileHeartbeating<T>(activity: Context, work: () => Promise<T>): Promise<T> {
  activity.heartbeat();
  const every = Math.max(500, Math.floor((activity.info.heartbeatTimeoutMs ?? 10_000) / 4));
  const timer = setInterval(() => activity.heartbeat(), every);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
