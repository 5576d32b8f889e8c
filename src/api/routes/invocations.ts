import Router from '@koa/router';
import { WorkflowFailedError, WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { findSkill } from '../../skills/catalog';
import type { SkillName } from '../../skills/types';
import { IdempotencyRepository } from '../../store/idempotency';
import { INVOCATION_STATUSES, InvocationRepository, TERMINAL_STATUSES, queuedInvocation, settledHere, type InvocationRecord } from '../../store/invocations';
import { ProjectRepository } from '../../store/projects';
import { decodeCursor, encodeCursor, parseLimit } from '../cursor';
import type { AppDeps } from '../deps';
import type { AppMetrics } from '../metrics';
import { checkInvocationAgainstData } from '../invocation-rules';
import { API_BODY_LIMIT } from '../limits';
import { jsonBody } from '../middleware/json-body';
import { authenticate, principalOf } from '../middleware/authenticate';
import { HttpProblem, badRequest, conflict, notFound } from '../problem';
import { projectForCaller } from '../project-access';
import { RateLimiter } from '../rate-limit';
import { startInvocationWorkflow } from '../../invocations/start-workflow';
import { TEMPORAL_CALL_TIMEOUT_MS, mapTemporalError } from '../temporal-errors';
import { validate } from '../validation';
import { missingEntitlement } from './skills';
import { newInvocationId, skillWorkflowId } from '../../invocations/ids';

const MAX_WAIT_SECONDS = 60;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** How long a claimed Idempotency-Key may stay without its invocation record before it counts as abandoned. */
const CLAIM_SETTLE_MS = 5_000;

/** Invoking a skill (a durable workflow), polling it, listing and cancelling invocations. */
export function invocationRoutes(deps: AppDeps, metrics: AppMetrics): Router {
  const projects = new ProjectRepository(deps.db);
  const invocations = new InvocationRepository(deps.db);
  const keys = new IdempotencyRepository(deps.db);
  const limiter = new RateLimiter(deps.config.skills.invocationsPerMinute, 60_000);
  const now = deps.now ?? (() => new Date());
  const { client } = deps.temporal;
  // `starter` is read per call: a worker in this process sets it once it runs (src/worker-in-api.ts).
  const startWorkflow = (record: InvocationRecord) =>
    startInvocationWorkflow(client, deps.config.temporal.taskQueue, record, { eagerClient: deps.temporal.starter });
  const router = new Router();
  router.use('/v1/agents', authenticate(deps.config.jwt));
  // Authenticate first, then read the body: an anonymous caller learns nothing from body errors.
  router.use('/v1/agents', jsonBody(API_BODY_LIMIT));

  router.post('/v1/agents/:project/skills/:skill', async (ctx) => {
    const principal = principalOf(ctx);
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const skill = findSkill(ctx.params.skill!);
    if (!skill) throw notFound('unknown_skill', `Skill "${ctx.params.skill}" does not exist; GET /v1/agents/${project._id}/skills lists them`);

    const retryAfter = limiter.hit(`${principal.sub}\u0000${project._id}`, now().getTime());
    if (retryAfter !== null) {
      throw new HttpProblem(429, 'rate_limited', `More than ${deps.config.skills.invocationsPerMinute} invocations a minute`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }

    if (ctx.state.body === undefined) throw badRequest('invalid_input', 'A JSON object with the skill inputs is required');
    const inputs = validate<Record<string, unknown>>(skill.inputSchema, ctx.state.body, 'Skill inputs');

    // Both checks read the store; run them together, then answer 402 before 422.
    const dataCheck = checkInvocationAgainstData(deps.db, project._id, skill.name as SkillName, inputs).then(() => null, (err: unknown) => ({ err }));
    const missing = missingEntitlement(skill.name, deps.config.skills.entitlements, await projects.effectiveEntitlements(project, now()));
    const dataFailure = await dataCheck;
    if (missing) throw new HttpProblem(402, 'not_entitled', `Project "${project._id}" is not entitled to "${missing}", which ${skill.name} requires`);
    if (dataFailure) throw dataFailure.err;

    const id = newInvocationId();
    const rawKey = ctx.get('Idempotency-Key');
    let idempotencyKey: string | null = null;
    if (rawKey) {
      if (!IDEMPOTENCY_KEY.test(rawKey)) throw badRequest('invalid_idempotency_key', 'Idempotency-Key must be 1-255 printable ASCII characters');
      idempotencyKey = `${project._id}\u0000${principal.sub}\u0000${skill.name}\u0000${rawKey}`;
      const bodyHash = createHash('sha256').update(stableJson(inputs)).digest('hex');
      const existing = await claimKey(idempotencyKey, bodyHash, id, project._id);
      if (existing) return respond(ctx, await waitFor(ctx, await resume(ctx, existing)));
    }

    const record = queuedInvocation({ id, project: project._id, skill: skill.name, inputs, workflowId: skillWorkflowId(project._id, id), requestedBy: principal.sub, createdAt: now() });
    // The record exists before the workflow so a client can poll at once, even while no worker runs.
    await invocations.create(record);
    const started = await startWorkflow(record);
    if (started.kind === 'not-started') {
      // Certainly nothing was started: remove the record and free the key so the client's retry starts cleanly.
      await invocations.remove(id);
      if (idempotencyKey) await keys.release(idempotencyKey, id);
      throw mapTemporalError(started.error, `Invocation ${id}`);
    }
    if (started.kind === 'unknown') throw unconfirmed(ctx, record, started.error);
    metrics.skillInvocations.inc({ skill: skill.name });
    ctx.state.log.info({ invocationId: id, skill: skill.name, project: project._id, eager: started.eager }, 'skill invocation started');
    return respond(ctx, await waitFor(ctx, record));
  });

  router.get('/v1/agents/:project/invocations', async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const { skill, status } = ctx.query;
    if (skill !== undefined && (typeof skill !== 'string' || !findSkill(skill))) throw badRequest('invalid_input', 'skill must name a skill');
    if (status !== undefined && (typeof status !== 'string' || !(INVOCATION_STATUSES as readonly string[]).includes(status))) {
      throw badRequest('invalid_input', `status must be one of ${INVOCATION_STATUSES.join(', ')}`);
    }
    const limit = parseLimit(ctx.query.limit, 20, 100);
    const cursor = decodeCursor(typeof ctx.query.cursor === 'string' ? ctx.query.cursor : undefined, ['createdAt', 'id'] as const);
    if (cursor && Number.isNaN(Date.parse(cursor.createdAt))) throw badRequest('invalid_cursor', 'cursor is not one this API returned');
    const rows = await invocations.list(project._id, {
      skill: skill as string | undefined,
      status: status as string | undefined,
      limit: limit + 1,
      before: cursor ? { createdAt: new Date(cursor.createdAt), id: cursor.id } : undefined,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    ctx.body = {
      invocations: page.map(present),
      nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last._id }) : null,
    };
  });

  router.get('/v1/agents/:project/invocations/:id', async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const record = await invocations.get(project._id, ctx.params.id!);
    if (!record) throw notFound('unknown_invocation', `Invocation "${ctx.params.id}" does not exist in project "${project._id}"`);
    ctx.body = present(record);
  });

  router.post('/v1/agents/:project/invocations/:id/cancel', async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const record = await invocations.get(project._id, ctx.params.id!);
    if (!record) throw notFound('unknown_invocation', `Invocation "${ctx.params.id}" does not exist in project "${project._id}"`);
    if ((TERMINAL_STATUSES as readonly string[]).includes(record.status)) {
      throw conflict('invocation_finished', `Invocation is already ${record.status}`);
    }
    const handle: WorkflowHandle = client.workflow.getHandle(record.workflowId);
    try {
      await client.connection.withDeadline(Date.now() + TEMPORAL_CALL_TIMEOUT_MS, () => handle.cancel());
    } catch (err) {
      // The workflow may have finished since the record was read: Temporal then no longer knows a running one.
      const latest = err instanceof WorkflowNotFoundError ? await invocations.get(project._id, record._id) : null;
      if (latest && (TERMINAL_STATUSES as readonly string[]).includes(latest.status)) throw conflict('invocation_finished', `Invocation is already ${latest.status}`);
      throw mapTemporalError(err, `Invocation ${record._id}`);
    }
    // The cancellation is durable in Temporal; record it now so pollers see it even before a worker acts.
    await invocations.markCancelled(record._id, now());
    ctx.status = 202;
    ctx.body = present((await invocations.get(project._id, record._id)) ?? record);
  });

  /**
   * Claims an Idempotency-Key for invocation `id`; returns the invocation of an earlier request with the same
   * key and body instead, or throws 409 for a different body. An earlier claim without its record yet is a
   * request still on its way (the record follows the claim within milliseconds), one that failed (it frees its
   * key) or one that died in between (its claim goes stale): wait for whichever it is before taking over.
   */
  async function claimKey(key: string, bodyHash: string, id: string, project: string): Promise<InvocationRecord | null> {
    for (let round = 0; round < 3; round++) {
      const claim = await keys.claim(key, bodyHash, id, now());
      if (claim.kind === 'claimed') return null;
      if (claim.kind === 'mismatch') throw conflict('idempotency_key_reused', 'This Idempotency-Key was used with a different body in the last 24 hours');
      const deadline = Date.now() + CLAIM_SETTLE_MS;
      for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
        const record = await invocations.get(project, claim.invocationId);
        if (record) return record;
        if ((await keys.holder(key)) !== claim.invocationId) break;
        if (Date.now() >= deadline) {
          await keys.release(key, claim.invocationId);
          break;
        }
        await new Promise((r) => setTimeout(r, wait));
      }
    }
    throw conflict('idempotency_key_busy', 'Another request with this Idempotency-Key is in progress; retry shortly');
  }

  /**
   * An earlier request's invocation, found by its Idempotency-Key. While it is still `queued`, its start may
   * never have reached Temporal (that request failed unconfirmed, or died): start it again, which attaches to
   * the run if there is one (src/invocations/start-workflow.ts), so the retry resumes the same invocation
   * instead of starting a second.
   */
  async function resume(ctx: Context, record: InvocationRecord): Promise<InvocationRecord> {
    if (record.status !== 'queued') return record;
    const started = await startWorkflow(record);
    if (started.kind !== 'started') throw unconfirmed(ctx, record, started.error);
    return record;
  }

  /**
   * Temporal neither confirmed nor refused the start: the run may exist. The record and the key stay, so a
   * retry with the same Idempotency-Key resumes this invocation (and a poll of Location shows it if it runs).
   */
  function unconfirmed(ctx: Context, record: InvocationRecord, error: unknown): HttpProblem {
    ctx.state.log.warn({ invocationId: record._id, err: describeError(error) }, 'skill invocation start unconfirmed; record kept');
    return new HttpProblem(503, 'temporal_unavailable', `The workflow service did not confirm the start of invocation ${record._id}; it may run. Retry with the same Idempotency-Key to resume it without a second run, or poll its Location.`, {
      headers: { Location: `/v1/agents/${record.project}/invocations/${record._id}`, 'Retry-After': '2' },
    });
  }

  /**
   * Prefer: wait=N — hold the answer up to N seconds for a terminal status, answering as soon as it is: a
   * terminal write in this process (a worker in the API process, a cancel here) ends the wait at once; else
   * the wait long-polls Temporal for the run's close (the run's last step makes the record terminal just
   * before it closes) and then reads the record once. Only when Temporal cannot say does it re-read the
   * record, less often as time passes.
   */
  async function waitFor(ctx: Context, record: InvocationRecord): Promise<{ record: InvocationRecord; waited: number | null }> {
    const m = /(?:^|[,;\s])wait=(\d+)/.exec(ctx.get('Prefer'));
    if (!m) return { record, waited: null };
    const seconds = Math.min(Number(m[1]), MAX_WAIT_SECONDS);
    const deadline = Date.now() + seconds * 1000;
    if (isTerminal(record)) return { record, waited: seconds };
    // Whichever comes first: a terminal write in this process, or the run's close (then the record is terminal).
    const controller = new AbortController();
    const unsubscribe = settledHere.subscribe(record._id, () => controller.abort());
    let closed: Awaited<ReturnType<typeof runClosed>>;
    try {
      closed = await runClosed(record.workflowId, deadline, controller.signal);
    } finally {
      unsubscribe();
    }
    let current = (await invocations.getFinished(record.project, record._id)) ?? record;
    if (closed === 'unknown') {
      // Temporal did not answer: re-read the record, less often as time passes.
      for (let wait = 50; !isTerminal(current) && Date.now() < deadline; wait = Math.min(wait * 2, 1_000)) {
        await new Promise((r) => setTimeout(r, Math.min(wait, Math.max(0, deadline - Date.now()))));
        current = (await invocations.get(record.project, record._id)) ?? current;
      }
    }
    return { record: current, waited: seconds };
  }

  /** Long-polls the run's close event: 'closed', 'deadline', or 'unknown' when Temporal cannot say. */
  async function runClosed(workflowId: string, deadline: number, signal: AbortSignal): Promise<'closed' | 'deadline' | 'unknown'> {
    try {
      await client.connection.withDeadline(deadline, () => client.connection.withAbortSignal(signal, () => client.workflow.getHandle(workflowId).result()));
      return 'closed';
    } catch (err) {
      if (err instanceof WorkflowFailedError) return 'closed'; // cancelled, terminated, timed out
      // Woken by a terminal write here, or out of time: the record read that follows says the rest.
      if (signal.aborted || Date.now() >= deadline - 5) return 'deadline';
      return 'unknown'; // not reachable, or no run (an unconfirmed start): the record must be read instead
    }
  }

  function respond(ctx: Context, outcome: { record: InvocationRecord; waited: number | null }): void {
    const { record, waited } = outcome;
    const self = `/v1/agents/${record.project}/invocations/${record._id}`;
    ctx.set('Location', self);
    if (waited !== null && isTerminal(record)) {
      ctx.set('Preference-Applied', `wait=${waited}`);
      ctx.status = 200;
      ctx.body = present(record);
      return;
    }
    ctx.status = 202;
    ctx.body = { id: record._id, project: record.project, skill: record.skill, status: record.status, createdAt: record.createdAt, links: { self } };
  }

  return router;
}

const isTerminal = (r: InvocationRecord) => (TERMINAL_STATUSES as readonly string[]).includes(r.status);

const describeError = (err: unknown) => (err instanceof Error ? { name: err.name, message: err.message, cause: (err.cause as Error | undefined)?.message } : String(err));

function present(r: InvocationRecord) {
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
    links: { self: `/v1/agents/${r.project}/invocations/${r._id}`, cancel: `/v1/agents/${r.project}/invocations/${r._id}/cancel` },
  };
}

/** Key order must not change the idempotency hash of the same body. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

