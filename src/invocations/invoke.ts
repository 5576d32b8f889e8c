import { createHash } from 'node:crypto';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { missingEntitlement } from '../skills/entitlements';
import type { SkillDefinition, SkillName } from '../skills/types';
import type { DocumentRepository } from '../store/documents';
import type { IdempotencyRepository } from '../store/idempotency';
import { isFinalRevision, queuedInvocation, type InvocationRecord, type InvocationRepository } from '../store/invocations';
import type { ProjectRecord, ProjectRepository } from '../store/projects';
import { check, type FieldError } from '../contracts/validation';
import { impossibleInputs } from './data-rules';
import { withProjectSettings } from './project-settings';
import { skillWorkflowId, type SkillInvocationInput } from '../contracts/workflows/skill-invocation';
import { newInvocationId } from './ids';
import type { RateDecision, RateLimiter } from '../contracts/rate-limit';
import { TEMPORAL_CALL_TIMEOUT_MS } from '../temporal/failures';
import { invocationRun, startInvocationWorkflow } from '../temporal/clients/skill-invocation';
import { isTerminal, waitForTerminal } from './wait';
import { followInvocation } from './follow';
import type { StreamBudget } from './stream-budget';
import type { Clock } from '../config/clock';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** How long a claimed Idempotency-Key may stay without its invocation record before it counts as abandoned. */
const CLAIM_SETTLE_MS = 5_000;

/** Why an invocation was not started; the API maps each to its status code, the CLI to a message. */
export type Refusal =
  | { code: 'rate_limited'; retryAfterSeconds: number }
  | { code: 'no_inputs' }
  | { code: 'invalid_input'; errors: FieldError[] }
  | { code: 'not_entitled'; entitlement: string }
  | { code: 'impossible_request'; errors: FieldError[] }
  | { code: 'invalid_idempotency_key' }
  | { code: 'idempotency_key_reused' }
  | { code: 'idempotency_key_busy' }
  /** Temporal certainly started nothing: the record is gone and the key free, so a retry starts cleanly. */
  | { code: 'not_started'; error: unknown }
  /** Temporal neither confirmed nor refused: the record and key stay, so a retry with the key resumes it. */
  | { code: 'unconfirmed'; record: InvocationRecord; error: unknown };

export class InvocationRefused extends Error {
  constructor(
    readonly refusal: Refusal,
    /** The caller's rate limit after this request, once it was counted (the API sends it as RateLimit fields). */
    readonly rate?: RateDecision,
  ) {
    super(refusal.code);
  }
}

export interface InvokeRequest {
  caller: string;
  project: ProjectRecord;
  skill: SkillDefinition;
  /** The skill inputs as sent (undefined: no body); schema defaults are filled in. */
  inputs: unknown;
  idempotencyKey?: string;
}

export interface Invoked {
  record: InvocationRecord;
  /** False when an earlier request with the same Idempotency-Key and body already made this invocation. */
  started: boolean;
  eager: boolean;
  /** The caller's rate limit after this request. */
  rate: RateDecision;
}

export interface InvocationServiceDeps {
  invocations: InvocationRepository;
  keys: IdempotencyRepository;
  projects: ProjectRepository;
  documents: DocumentRepository;
  limiter: RateLimiter;
  client: Client;
  /** Read per start: a worker in this process sets it once it runs, and starts are then eager. */
  eagerClient: () => Client | null | undefined;
  taskQueue: string;
  /** skill → the entitlement it requires (SKILL_ENTITLEMENTS). */
  entitlements: Record<string, string>;
  /** The long-lived answers (event streams, A2A streams, MCP GET streams) held open, per caller and per process. */
  streams: StreamBudget;
  now: Clock;
}

/**
 * The one front door of invocations: invoking a skill (the checks: rate, schema, entitlement, the project's data;
 * the Idempotency-Key, the record and the durable workflow's start), reading, waiting for and following an
 * invocation, cancelling it, and the one limit on streams held open. Every adapter (the REST routes, the event
 * stream, A2A, MCP) calls it and maps its answers and refusals to its protocol; tests call it directly. A completed
 * record it returns or yields carries its result.
 */
export class InvocationService {
  constructor(private readonly deps: InvocationServiceDeps) {}

  async invoke(request: InvokeRequest): Promise<Invoked> {
    const rate = this.deps.limiter.take(`${request.caller}\u0000${request.project._id}`, this.deps.now().getTime());
    if (!rate.allowed) throw new InvocationRefused({ code: 'rate_limited', retryAfterSeconds: rate.retryAfterSeconds ?? 1 }, rate);
    try {
      return { ...(await this.checkAndStart(request)), rate };
    } catch (err) {
      if (err instanceof InvocationRefused) throw new InvocationRefused(err.refusal, rate);
      throw err;
    }
  }

  private async checkAndStart(request: InvokeRequest): Promise<Omit<Invoked, 'rate'>> {
    const { invocations, keys, projects, documents, entitlements, now } = this.deps;
    const { project, skill, caller } = request;

    if (request.inputs === undefined) throw new InvocationRefused({ code: 'no_inputs' });
    const errors = check(skill.inputSchema, request.inputs);
    if (errors.length > 0) throw new InvocationRefused({ code: 'invalid_input', errors });
    const inputs = request.inputs as Record<string, unknown>;

    // Both checks read the store; run them together, then refuse for the entitlement before the data.
    const dataCheck = impossibleInputs(documents, project._id, skill.name as SkillName, inputs);
    const missing = missingEntitlement(skill.name, entitlements, await projects.effectiveEntitlements(project, now()));
    const impossible = await dataCheck;
    if (missing) throw new InvocationRefused({ code: 'not_entitled', entitlement: missing });
    if (impossible.length > 0) throw new InvocationRefused({ code: 'impossible_request', errors: impossible });

    const id = newInvocationId();
    let key: string | null = null;
    if (request.idempotencyKey !== undefined) {
      if (!IDEMPOTENCY_KEY.test(request.idempotencyKey)) throw new InvocationRefused({ code: 'invalid_idempotency_key' });
      key = `${project._id}\u0000${caller}\u0000${skill.name}\u0000${request.idempotencyKey}`;
      const bodyHash = createHash('sha256').update(stableJson(inputs)).digest('hex');
      const existing = await this.claimKey(key, bodyHash, id, project._id);
      if (existing) return { record: await this.resume(existing), started: false, eager: false };
    }

    const record = queuedInvocation({
      id,
      project: project._id,
      skill: skill.name,
      // The record keeps what the invocation runs with: the project's settings fill what the caller left out.
      inputs: withProjectSettings(skill.name as SkillName, inputs, project),
      workflowId: skillWorkflowId(project._id, id),
      requestedBy: caller,
      createdAt: now(),
    });
    // The record exists before the workflow so a client can poll at once, even while no worker runs.
    await invocations.create(record);
    const started = await this.start(record);
    if (started.kind === 'not-started') {
      await invocations.remove(id);
      if (key) await keys.release(key, id);
      throw new InvocationRefused({ code: 'not_started', error: started.error });
    }
    if (started.kind === 'unknown') throw new InvocationRefused({ code: 'unconfirmed', record, error: started.error });
    return { record, started: true, eager: started.eager };
  }

  /** The project's invocation `id` as it is now (a completed one with its result), or null when it has none. */
  get(project: string, id: string): Promise<InvocationRecord | null> {
    return this.deps.invocations.get(project, id);
  }

  /** A page of the project's invocations, newest first (a completed one with its result). */
  list(project: string, query: Parameters<InvocationRepository['list']>[1]): Promise<InvocationRecord[]> {
    return this.deps.invocations.list(project, query);
  }

  /**
   * Waits up to `seconds` for the invocation to reach a terminal status and returns it as it then is (still
   * running when the time ran out). A completed draft whose model rewrite is still to come is terminal: the wait
   * answers with the draft, and `follow` goes on to the final version.
   */
  async wait(record: InvocationRecord, seconds: number): Promise<InvocationRecord> {
    return this.withResult(await waitForTerminal(this.deps.client, this.deps.invocations, record, seconds));
  }

  /**
   * The invocation's states as they are stored: the current one first, then each change (a later version of a
   * completed result is a change), a completed state with its result. Ends with the settled record (terminal and
   * the result's final version: a draft is followed by its rewrite), or earlier when `signal` aborts or `until`
   * (epoch ms) passes, when the last state yielded is not settled.
   */
  async *follow(record: InvocationRecord, opts: { signal?: AbortSignal; until?: number } = {}): AsyncGenerator<InvocationRecord> {
    for await (const current of followInvocation(this.deps.invocations, record, opts)) yield await this.withResult(current);
  }

  /**
   * Takes one of `caller`'s streams (an answer held open: an event stream, an A2A stream, an MCP GET stream); the
   * answer calls the release it returns when it ends. Throws TooManyStreams past the caller's share or the
   * process's bound.
   */
  openStream(caller: string): () => void {
    return this.deps.streams.acquire(caller);
  }

  /**
   * A completed record read without its result (one a caller passed in) gets the stored result; the state stays
   * the one given, so a follower never skips or repeats a version. Others as they are.
   */
  private async withResult(record: InvocationRecord): Promise<InvocationRecord> {
    if (record.status !== 'completed' || record.result != null) return record;
    const stored = await this.deps.invocations.getFinished(record.project, record._id);
    return { ...record, result: stored?.result ?? null };
  }

  /**
   * Cancels a running invocation: the cancellation is durable in Temporal, and recorded at once so pollers see
   * it even before a worker acts. Temporal failures other than "no such run" are the caller's to map.
   */
  async cancel(
    project: string,
    id: string,
  ): Promise<{ kind: 'not_found' } | { kind: 'finished'; status: string } | { kind: 'cancelled'; record: InvocationRecord }> {
    const { invocations, client, now } = this.deps;
    const record = await invocations.get(project, id);
    if (!record) return { kind: 'not_found' };
    // A completed draft whose model rewrite is still running: cancelling stops the rewrite, and the draft stays.
    const rewriting = record.status === 'completed' && !isFinalRevision(record);
    if (isTerminal(record) && !rewriting) return { kind: 'finished', status: record.status };
    try {
      await client.connection.withDeadline(Date.now() + TEMPORAL_CALL_TIMEOUT_MS, () => invocationRun(client, record.workflowId).cancel());
    } catch (err) {
      // The workflow may have finished since the record was read: Temporal then no longer knows a running one.
      const latest = err instanceof WorkflowNotFoundError ? await invocations.get(project, record._id) : null;
      if (latest && isTerminal(latest)) return { kind: 'finished', status: latest.status };
      throw err;
    }
    if (rewriting) return { kind: 'cancelled', record };
    await invocations.markCancelled(record._id, now());
    return { kind: 'cancelled', record: (await invocations.get(project, record._id)) ?? record };
  }

  private start(record: InvocationRecord) {
    return startInvocationWorkflow(
      this.deps.client,
      this.deps.taskQueue,
      { workflowId: record.workflowId, input: inputOf(record) },
      { eagerClient: this.deps.eagerClient() },
    );
  }

  /**
   * Claims an Idempotency-Key for invocation `id`; returns the invocation of an earlier request with the same
   * key and body instead, or refuses a different body. An earlier claim without its record yet is a request
   * still on its way (the record follows the claim within milliseconds), one that failed (it frees its key) or
   * one that died in between (its claim goes stale): wait for whichever it is before taking over.
   */
  private async claimKey(key: string, bodyHash: string, id: string, project: string): Promise<InvocationRecord | null> {
    const { keys, invocations, now } = this.deps;
    for (let round = 0; round < 3; round++) {
      const claim = await keys.claim(key, bodyHash, id, now());
      if (claim.kind === 'claimed') return null;
      if (claim.kind === 'mismatch') throw new InvocationRefused({ code: 'idempotency_key_reused' });
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
    throw new InvocationRefused({ code: 'idempotency_key_busy' });
  }

  /**
   * An earlier request's invocation, found by its Idempotency-Key. While it is still `queued`, its start may
   * never have reached Temporal (that request failed unconfirmed, or died): start it again, which attaches to
   * the run if there is one (src/temporal/clients/skill-invocation.ts), so the retry resumes the same invocation instead of starting a
   * second.
   */
  private async resume(record: InvocationRecord): Promise<InvocationRecord> {
    if (record.status !== 'queued') return record;
    const started = await this.start(record);
    if (started.kind !== 'started') throw new InvocationRefused({ code: 'unconfirmed', record, error: started.error });
    return record;
  }
}

/** Key order must not change the idempotency hash of the same body. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The workflow input an invocation record stands for (the same on every start of it). */
export function inputOf(record: InvocationRecord): SkillInvocationInput {
  return {
    invocationId: record._id,
    project: record.project,
    skill: record.skill as SkillName,
    inputs: record.inputs,
    requestedAt: record.createdAt.toISOString(),
  };
}
