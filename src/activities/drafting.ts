import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Config } from '../config/config';
import { createChatModel, type ChatModel, type ResponseFormat } from '../llm/chat-client';
import { isRequestRefused, LLM_FAILURE } from '../llm/failures';
import { afterModelFailure } from '../llm/model-failure';
import { createProjectGate } from '../llm/project-gate';
import type { ProjectDocument } from '../skills/documents';
import { noRewriteProgress, rewritePart, type RewriteProgress } from '../skills/model-rewrite';
import type { ModelSectionReport, SkillResult } from '../skills/result';
import {
  acceptSectionAnswer,
  answerTokenBudget,
  composeModelResult,
  rewriteAnchors,
  rewriteTargets,
  SECTION_ANSWER_SCHEMA,
  sectionMessages,
  selectAndDraft,
} from '../skills/run';
import type { InvocationContextRepository } from '../store/invocation-contexts';
import type { ActivityDeps } from './deps';
import type { SkillInvocationInput } from '../contracts/workflows/skill-invocation';
import type { DraftOutcome, SkillContextRef } from './skill-types';
import { whileHeartbeating } from './heartbeat';

/** Time left in an attempt after the last model call, for checking the answers and returning the result. */
const AFTER_MODEL_MARGIN_MS = 5_000;
const MIN_MODEL_TIMEOUT_MS = 1_000;

const SCHEMA_FORMAT: ResponseFormat = {
  type: 'json_schema',
  json_schema: { name: 'section', schema: SECTION_ANSWER_SCHEMA, strict: true },
};
/** JSON mode: for a server that refused the schema (400, 422). */
const JSON_MODE: ResponseFormat = { type: 'json_object' };
/** JSON mode with the schema beside it, as llama.cpp's Python server constrains its output (LLM_RESPONSE_FORMAT=json_object). */
const JSON_MODE_WITH_SCHEMA: ResponseFormat = { type: 'json_object', schema: SECTION_ANSWER_SCHEMA };

export function chatModelFromConfig(llm: Config['llm']): ChatModel | null {
  return llm.baseUrl && llm.model
    ? createChatModel({ baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: llm.model, timeoutMs: llm.timeoutMs })
    : null;
}

const FAILED_OUTCOME = (err: unknown): ModelSectionReport['outcome'] =>
  err instanceof ApplicationFailure && err.type === LLM_FAILURE.timeout ? 'timed_out' : 'failed';

/** The sections a model is asked to rewrite, smallest first: a slow model still gets through the short ones. */
export function rewriteOrder(draft: SkillResult, targets: readonly number[]): number[] {
  // By what is sent (a section's lead alone when its entries follow it), which is what the model reads and writes.
  const size = (i: number) => rewritePart(draft.sections[i]!.markdownWithCitations).sent.length;
  return [...targets].sort((a, b) => size(a) - size(b) || a - b);
}

/**
 * What the workflow needs to give a model rewrite its time: how many sections will be sent, each with up to
 * LLM_TIMEOUT_MS; undefined with no model or nothing to rewrite.
 */
export function rewritePlan(input: SkillInvocationInput, draft: SkillResult, model: ChatModel | null, sectionTimeoutMs: number) {
  if (!model) return undefined;
  const sections = rewriteTargets(input.skill, draft).length;
  return sections > 0 ? { sections, sectionTimeoutMs } : undefined;
}

/**
 * The drafting step: the deterministic draft always; with a model configured, the model rewrites the draft's
 * prose section by section, smallest first, each call with its own LLM_TIMEOUT_MS (the workflow gives the
 * activity that much per section), and each answer replaces its section only when it says what the draft says
 * (rewrite-check/). An answer identical to the draft is reported `unchanged` and leaves the section the
 * deterministic text. Rate limits and 5xx retry the activity (from the next unanswered section: the progress is
 * saved with the retrieved documents); a timeout or a refused request ends the model's part, and the sections not
 * rewritten stay as drafted, with a note saying why.
 */
export function createDraftingActivity(
  deps: Pick<ActivityDeps, 'config' | 'logger'>,
  contexts: InvocationContextRepository,
  model: ChatModel | null,
) {
  // This worker's turns at the model, per project (one burst of a project never delays another's rewrite).
  const { perProject, waitingPerProject } = deps.config.llm;
  const gate = createProjectGate(perProject, waitingPerProject);
  /** `retrieved`: the documents when the caller already holds them (the local path), else read from the store. */
  return async function draftSkillDocument(
    input: SkillInvocationInput,
    context: SkillContextRef,
    retrieved?: ProjectDocument[],
  ): Promise<DraftOutcome> {
    const docs = retrieved ?? (await contexts.load(context.contextId));
    if (!docs) {
      throw ApplicationFailure.create({ type: 'ContextLost', message: 'retrieved documents are missing; retrieval must run again' });
    }
    const inputs = input.inputs as never;
    const draft = selectAndDraft(input.skill, inputs, docs, input.requestedAt);
    if (!model) return { result: draft };

    const activity = Context.current();
    const log = deps.logger.child({
      invocationId: input.invocationId,
      skill: input.skill,
      attempt: activity.info.attempt,
      model: model.model,
    });
    // What an earlier attempt got from the model: kept in the store, so a retry goes on from the next section.
    const progress = (await contexts.loadRewrite(context.contextId)) ?? noRewriteProgress();
    const preferred = deps.config.llm.responseFormat === 'json_object' ? JSON_MODE_WITH_SCHEMA : SCHEMA_FORMAT;
    const deadline = attemptDeadline(activity);
    const targets = rewriteTargets(input.skill, draft);
    const anchors = rewriteAnchors(input.skill, inputs);
    const todo = rewriteOrder(draft, targets).filter((i) => !progress.sections.some((s) => s.index === i));
    if (todo.length === 0) return { result: modelResult(input, draft, docs, model.model, targets, progress, undefined) };
    // The project's turn, waited for while a whole section's time is still left in the attempt after it.
    const waitMs = deadline - Date.now() - deps.config.llm.timeoutMs;
    const turn = await whileHeartbeating(activity, () =>
      gate.acquire(input.project, AbortSignal.any([activity.cancellationSignal, AbortSignal.timeout(Math.max(0, waitMs))])),
    );
    if ('refused' in turn) {
      if (activity.cancellationSignal.aborted) throw activity.cancellationSignal.reason;
      const reason =
        turn.refused === 'busy'
          ? `The model was busy with this project's other invocations (${perProject} at a time per worker, ${waitingPerProject} waiting: LLM_REWRITES_PER_PROJECT, LLM_WAITING_PER_PROJECT).`
          : "The model's turn for this project did not come within the attempt's time.";
      log.warn({ project: input.project, refused: turn.refused, ...gate.load(input.project) }, 'no turn at the model for this project');
      return { result: modelResult(input, draft, docs, model.model, targets, progress, { reason }) };
    }
    /** Sends one section and records what came of it; the reason the model's part ends here, if it does. */
    const rewriteSection = async (index: number): Promise<{ reason: string } | undefined> => {
      const heading = draft.sections[index]!.heading;
      const left = deadline - Date.now();
      const timeoutMs = Math.min(deps.config.llm.timeoutMs, left);
      if (timeoutMs < MIN_MODEL_TIMEOUT_MS) return { reason: `The attempt ran out of time for the model before "${heading}".` };
      const started = Date.now();
      const ask = (jsonMode: boolean) =>
        model.complete(sectionMessages(input.skill, inputs, draft, index), {
          signal: activity.cancellationSignal,
          timeoutMs,
          responseFormat: jsonMode ? JSON_MODE : preferred,
          maxTokens: answerTokenBudget(draft.sections[index]!),
        });
      let answer: string;
      try {
        answer = await whileHeartbeating(activity, async () => {
          try {
            return await ask(progress.jsonMode);
          } catch (err) {
            // A server that does not take a JSON schema may still take JSON mode: ask once more, then keep to it.
            if (progress.jsonMode || !isRequestRefused(err) || activity.cancellationSignal.aborted) throw err;
            progress.jsonMode = true;
            return await ask(true);
          }
        });
      } catch (err) {
        // Cancelled or the worker is shutting down: Temporal decides what happens next, not the fallback.
        if (activity.cancellationSignal.aborted) throw err;
        const outcome = afterModelFailure(err, activity.info.attempt, activity.info.retryPolicy?.maximumAttempts);
        // A model failure is expected weather, not a bug: its type and message say enough, a stack would not.
        const failure = err instanceof ApplicationFailure ? { type: err.type, message: err.message, cause: err.cause?.message } : err;
        log.warn({ err: failure, retry: outcome.retry, section: heading }, 'model call failed');
        if (outcome.retry) throw err;
        const timedOut = FAILED_OUTCOME(err) === 'timed_out';
        // The figure that held: LLM_TIMEOUT_MS, or what was left of the attempt when that was less.
        const reason = timedOut
          ? `The model did not answer "${heading}" within ${timeoutMs} ms (${timeoutMs === deps.config.llm.timeoutMs ? 'LLM_TIMEOUT_MS, per section' : 'the time left in the attempt'}).`
          : outcome.reason;
        progress.sections.push({ index, heading, outcome: FAILED_OUTCOME(err), reason, durationMs: Date.now() - started });
        return { reason };
      }
      const verdict = acceptSectionAnswer(answer, draft.sections[index]!, docs, anchors, {
        rest: rewritePart(draft.sections[index]!.markdownWithCitations).rest,
      });
      const report = { index, heading, durationMs: Date.now() - started, ...(verdict.facts ? { facts: verdict.facts } : {}) };
      if (verdict.ok && verdict.unchanged) {
        progress.sections.push({ ...report, outcome: 'unchanged', reason: "the model's answer is the draft's text" });
      } else if (verdict.ok) {
        progress.accepted[index] = verdict.markdown;
        progress.sections.push({ ...report, outcome: 'accepted' });
      } else {
        log.warn({ section: heading, reason: verdict.reason }, "model's rewrite of a section failed the checks; keeping the draft's");
        progress.sections.push({ ...report, outcome: 'refused', reason: verdict.reason });
      }
      await contexts.saveRewrite(context.contextId, progress);
      return undefined;
    };
    let stop: { reason: string } | undefined;
    try {
      for (const index of todo) {
        stop = await rewriteSection(index);
        if (stop) break;
      }
    } finally {
      turn.release();
    }
    return { result: modelResult(input, draft, docs, model.model, targets, progress, stop) };
  };
}

/** The result from what the model gave, every section reported in the draft's order, with notes for the reader. */
function modelResult(
  input: SkillInvocationInput,
  draft: SkillResult,
  docs: readonly ProjectDocument[],
  name: string,
  targets: number[],
  progress: RewriteProgress,
  stop: { reason: string } | undefined,
): SkillResult {
  const byIndex = new Map(progress.sections.map((s) => [s.index, s]));
  const sections: ModelSectionReport[] = draft.sections.map((s, i) => {
    const done = byIndex.get(i);
    if (done) {
      const { index: _index, ...report } = done;
      return report;
    }
    const reason = targets.includes(i) ? `not sent: ${stop?.reason ?? 'no time left'}` : 'not sent: nothing to rewrite';
    return { heading: s.heading, outcome: 'kept', reason, durationMs: 0 };
  });
  const accepted = new Map(Object.entries(progress.accepted).map(([i, text]) => [Number(i), text]));
  const notes = sections.flatMap((s) =>
    s.outcome === 'refused' ? [`The model's rewrite of "${s.heading}" was not used: ${s.reason}.`] : [],
  );
  const unsent = targets.filter((i) => !byIndex.has(i)).map((i) => draft.sections[i]!);
  if (stop)
    notes.push(
      `${stop.reason}${unsent.length ? ` Not sent: ${unsent.map((s) => `"${s.heading}"`).join(', ')}.` : ''} ${accepted.size > 0 ? 'The sections it did not write are the deterministic draft.' : 'This is the deterministic draft.'}`,
    );
  else if (accepted.size === 0 && notes.length > 0) notes.push('This is the deterministic draft.');
  return composeModelResult(input.skill, input.inputs as never, draft, docs, name, { accepted, sections, notes });
}

/** When the attempt must stop asking the model: its own start-to-close timeout must never cut the fallback off. */
function attemptDeadline(activity: Context): number {
  const attemptMs = activity.info.startToCloseTimeoutMs;
  return attemptMs > 0 ? Date.now() + attemptMs - AFTER_MODEL_MARGIN_MS : Number.POSITIVE_INFINITY;
}
