import Router from '@koa/router';
import type { Context } from 'koa';
import { describeImpossible } from '../../invocations/data-rules';
import { InvocationRefused, type Refusal } from '../../invocations/invoke';
import { isTerminal } from '../../invocations/wait';
import { findSkill } from '../../skills/catalog';
import { INVOCATION_STATUSES, isInvocationStatus } from '../../skills/invocation-status';
import type { InvocationRecord } from '../../store/invocations';
import { cursorCodec, parseLimit } from '../http/cursor';
import { listPage } from '../http/pagination';
import type { AppDeps } from '../deps';
import type { AppMetrics } from '../http/metrics';
import { API_BODY_LIMIT } from '../http/limits';
import { jsonBody } from '../middleware/json-body';
import { authenticate, principalOf } from '../access/authenticate';
import { HttpProblem, badRequest, conflict, notFound, unprocessable } from '../http/problem';
import { presentInvocation as present } from '../resources/invocation-resource';
import { rateLimitFields } from '../access/rate-limit-fields';
import { projectForCaller } from '../access/project-access';
import { workflowLinker } from '../access/billing-scope';
import { mapTemporalError } from '../http/temporal-errors';

const CURSOR = cursorCodec({ createdAt: 'date', id: 'string' });

const MAX_WAIT_SECONDS = 60;
/** The name of the invocation limit in the RateLimit fields (SKILL_INVOCATIONS_PER_MINUTE per caller and project). */
const INVOCATION_POLICY = 'invocations';

/** Invoking a skill (a durable workflow), polling it, listing and cancelling invocations: HTTP in and out. */
export function invocationRoutes(deps: AppDeps, metrics: AppMetrics): Router {
  const { projects } = deps.repos;
  const service = deps.invocations;
  const linkOf = (ctx: Context) => workflowLinker(deps.config.temporal, principalOf(ctx));
  const router = new Router();
  router.use('/v1/agents', authenticate(deps.config.jwt));
  // Authenticate first, then read the body: an anonymous caller learns nothing from body errors.
  router.use('/v1/agents', jsonBody(API_BODY_LIMIT));

  router.post('/v1/agents/:project/skills/:skill', async (ctx) => {
    const principal = principalOf(ctx);
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const skill = findSkill(ctx.params.skill!);
    if (!skill)
      throw notFound('unknown_skill', `Skill "${ctx.params.skill}" does not exist; GET /v1/agents/${project._id}/skills lists them`);
    const rawKey = ctx.get('Idempotency-Key');
    let invoked;
    try {
      invoked = await service.invoke({
        caller: principal.sub,
        project,
        skill,
        inputs: ctx.state.body,
        idempotencyKey: rawKey === '' ? undefined : rawKey,
      });
    } catch (err) {
      if (!(err instanceof InvocationRefused)) throw err;
      if (err.rate) ctx.set(rateLimitFields(INVOCATION_POLICY, err.rate));
      throw refusalProblem(ctx, err.refusal, project._id, skill.name);
    }
    ctx.set(rateLimitFields(INVOCATION_POLICY, invoked.rate));
    if (invoked.started) {
      metrics.skillInvocations.inc({ skill: skill.name });
      ctx.state.log.info(
        { invocationId: invoked.record._id, skill: skill.name, project: project._id, eager: invoked.eager },
        'skill invocation started',
      );
    }
    const wait = preferredWait(ctx);
    const record = wait === null ? invoked.record : await service.wait(invoked.record, wait);
    respond(ctx, record, wait);
  });

  router.get('/v1/agents/:project/invocations', async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const { skill, status } = ctx.query;
    if (skill !== undefined && (typeof skill !== 'string' || !findSkill(skill)))
      throw badRequest('invalid_input', 'skill must name a skill');
    if (status !== undefined && (typeof status !== 'string' || !isInvocationStatus(status))) {
      throw badRequest('invalid_input', `status must be one of ${INVOCATION_STATUSES.join(', ')}`);
    }
    const limit = parseLimit(ctx.query.limit, 20, 100);
    const before = CURSOR.decode(ctx.query.cursor);
    const link = linkOf(ctx);
    const { items, nextCursor } = await listPage({
      limit,
      read: (rows) =>
        service.list(project._id, { skill: skill as string | undefined, status: status as string | undefined, limit: rows, before }),
      present: (r) => present(r, link(r.workflowId)),
      cursorOf: (last) => CURSOR.encode({ createdAt: last.createdAt, id: last._id }),
      budgetBytes: Infinity,
    });
    ctx.body = { invocations: items, nextCursor };
  });

  router.get('/v1/agents/:project/invocations/:id', async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const record = await service.get(project._id, ctx.params.id!);
    if (!record) throw notFound('unknown_invocation', `Invocation "${ctx.params.id}" does not exist in project "${project._id}"`);
    ctx.body = present(record, linkOf(ctx)(record.workflowId));
  });

  router.post('/v1/agents/:project/invocations/:id/cancel', async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    let outcome;
    try {
      outcome = await service.cancel(project._id, ctx.params.id!);
    } catch (err) {
      throw mapTemporalError(err, `Invocation ${ctx.params.id}`);
    }
    if (outcome.kind === 'not_found')
      throw notFound('unknown_invocation', `Invocation "${ctx.params.id}" does not exist in project "${project._id}"`);
    if (outcome.kind === 'finished') throw conflict('invocation_finished', `Invocation is already ${outcome.status}`);
    ctx.status = 202;
    ctx.body = present(outcome.record);
  });

  /** The problem+json answer to a refused invocation. */
  function refusalProblem(ctx: Context, refusal: Refusal, project: string, skill: string): unknown {
    switch (refusal.code) {
      case 'rate_limited':
        return new HttpProblem(429, 'rate_limited', `More than ${deps.config.skills.invocationsPerMinute} invocations in the last minute`, {
          headers: { 'Retry-After': String(refusal.retryAfterSeconds) },
        });
      case 'no_inputs':
        return badRequest('invalid_input', 'A JSON object with the skill inputs is required');
      case 'invalid_input':
        return badRequest(
          'invalid_input',
          `Skill inputs do not match the schema: ${refusal.errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ')}`,
          refusal.errors,
        );
      case 'not_entitled':
        return new HttpProblem(
          402,
          'not_entitled',
          `Project "${project}" is not entitled to "${refusal.entitlement}", which ${skill} requires`,
        );
      case 'impossible_request':
        return unprocessable('impossible_request', describeImpossible(project, refusal.errors), refusal.errors);
      case 'invalid_idempotency_key':
        return badRequest('invalid_idempotency_key', 'Idempotency-Key must be 1-255 printable ASCII characters');
      case 'idempotency_key_reused':
        return conflict('idempotency_key_reused', 'This Idempotency-Key was used with a different body in the last 24 hours');
      case 'idempotency_key_busy':
        return conflict('idempotency_key_busy', 'Another request with this Idempotency-Key is in progress; retry shortly');
      case 'not_started':
        return mapTemporalError(refusal.error, 'Invocation');
      case 'unconfirmed': {
        const { record } = refusal;
        ctx.state.log.warn(
          { invocationId: record._id, err: describeError(refusal.error) },
          'skill invocation start unconfirmed; record kept',
        );
        return new HttpProblem(
          503,
          'temporal_unavailable',
          `The workflow service did not confirm the start of invocation ${record._id}; it may run. Retry with the same Idempotency-Key to resume it without a second run, or poll its Location.`,
          {
            headers: { Location: `/v1/agents/${record.project}/invocations/${record._id}`, 'Retry-After': '2' },
          },
        );
      }
    }
  }

  return router;
}

/** Prefer: wait=N (N capped at 60): how long to hold the answer for a terminal status; null without it. */
function preferredWait(ctx: Context): number | null {
  const m = /(?:^|[,;\s])wait=(\d+)/.exec(ctx.get('Prefer'));
  return m ? Math.min(Number(m[1]), MAX_WAIT_SECONDS) : null;
}

function respond(ctx: Context, record: InvocationRecord, waited: number | null): void {
  const self = `/v1/agents/${record.project}/invocations/${record._id}`;
  ctx.set('Location', self);
  if (waited !== null && isTerminal(record)) {
    ctx.set('Preference-Applied', `wait=${waited}`);
    ctx.status = 200;
    ctx.body = present(record);
    return;
  }
  ctx.status = 202;
  ctx.body = {
    id: record._id,
    project: record.project,
    skill: record.skill,
    status: record.status,
    createdAt: record.createdAt,
    links: { self },
  };
}

const describeError = (err: unknown) =>
  err instanceof Error ? { name: err.name, message: err.message, cause: (err.cause as Error | undefined)?.message } : String(err);
