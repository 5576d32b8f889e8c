import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger';
import { isPermanentRefusal } from '../temporal/failures';
import { deadLetterKey } from '../billing/dead-letter-key';
import { signalSubscriberEvents } from '../temporal/clients/billing-subscriber';
import { EVENT_BATCH_CHARS, EVENT_BATCH_MAX } from '../workflows/contracts/billing-subscriber';
import type { DeadLetterRepository } from '../store/dead-letters';
import type { RelayCheckpointRepository } from '../store/relay-checkpoints';
import type { Repositories } from '../store/repositories';
import { parseStoredEvent, type WebhookEventRecord, type WebhookEventRepository } from '../store/webhook-events';
import { systemClock, type Clock } from '../config/clock';
import type { LazyNativeClient } from '../temporal/client';
import { TenantRoundRobin } from './tenant-round-robin';

const CHECKPOINT_INTERVAL_MS = 2_000;
/**
 * A checkpoint not refreshed for this long (five missed refreshes) belongs to a dead instance, and its events
 * are relayed by the next recovery pass: at most 15 s after the death. Taking a slow peer for dead costs only a
 * second, harmless relay of its recent events.
 */
const STALE_AFTER_MS = 10_000;
const RECOVERY_INTERVAL_MS = 5_000;
/** A relay that keeps failing (Temporal down) is retried with a growing delay, and parked after a day. */
const RETRY_DELAY_MS = 5_000;
const MAX_RETRY_DELAY_MS = 5 * 60_000;
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;

/** The wait before the n-th retry (1-based) of a failed relay: 5 s, doubling, at most 5 min. */
export function relayRetryDelay(attempt: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, RETRY_DELAY_MS * 2 ** Math.min(Math.max(attempt - 1, 0), 16));
}
/**
 * Signal-with-start calls in flight at once; the rest wait in memory (and in the inbox, should we die). Eight keep
 * a local server busy; more only split a backlog into more, smaller calls (bench/README.md, intake).
 */
export const RELAY_CALLS_IN_FLIGHT = 8;
/**
 * Calls one billing scope may have in flight: the rest stay free for other scopes, so another app's event leaves at
 * once during one app's burst instead of waiting for one of the burst's calls to come back.
 */
export const RELAY_CALLS_PER_SCOPE = 6;
/**
 * Events held in memory while they wait (during a Temporal outage, a burst): about 2 KB each, so some 40 MB at
 * most. Past this only their ids are kept (so the checkpoint stays behind them), and they are read back from the
 * inbox once the queue has drained. The deeper the queue, the more of a subscriber's events leave in one call.
 */
const MAX_QUEUED = 20_000;
/**
 * One signal-with-start (with the connect, when it is the first) may take this long: a half-open connection must
 * not pin a relay slot forever.
 */
const FORWARD_TIMEOUT_MS = 10_000;
/** How long stop() waits for in-flight relays before leaving the rest to recovery. */
const STOP_WAIT_MS = 10_000;

/**
 * The relay from the durable inbox to the entity workflows (signal-with-start). The request that accepted an
 * event hands it over at once and the ack never waits for it. Nothing is written per relayed event: this
 * instance keeps a checkpoint ("everything I accepted before T has been relayed") fresh in the store, and
 * when an instance dies, whoever finds its stale checkpoint re-forwards what it accepted since T. Forwarding
 * twice is harmless, since the workflow skips event ids it has applied: delivery from here is at-least-once
 * and the effect exactly once.
 */
export class EventForwarder {
  readonly instanceId = randomUUID();
  private readonly events: WebhookEventRepository;
  private readonly checkpoints: RelayCheckpointRepository;
  private readonly deadLetters: DeadLetterRepository;
  /** Failed relays by record id: when the first failure was and how many there were. Bounded like `unrelayed`. */
  private readonly failures = new Map<string, { firstMs: number; count: number }>();
  /** Events being inserted right now (ticket → receivedAt): the checkpoint must not pass them either. */
  private readonly accepting_ = new Map<number, Date>();
  private nextTicket = 0;
  /** Accepted and not yet relayed, by record id → receivedAt. */
  private readonly unrelayed = new Map<string, Date>();
  /**
   * Waiting events by subscriber workflow, each list in the order received, and subscribers by billing scope: scopes
   * are served in turn, and within a scope subscribers in the order their oldest waiting event came. A subscriber
   * with a call in flight (`busy`) waits for it, so its next events leave together and in order.
   */
  private readonly waiting = new TenantRoundRobin<WebhookEventRecord>();
  private readonly busy = new Set<string>();
  /** Record ids in `waiting`, and how many. */
  private readonly queuedIds = new Set<string>();
  private readonly inFlight = new Set<string>();
  /** Signal-with-start calls under way (each carries one event, or a batch for one subscriber), and by scope. */
  private calls = 0;
  private readonly scopeCalls = new Map<string, number>();
  private readonly idleWaiters = new Set<() => void>();
  private timers: NodeJS.Timeout[] = [];
  private overflowed = false;
  private recovering: Promise<number> | null = null;

  constructor(
    repos: Pick<Repositories, 'webhookEvents' | 'relayCheckpoints' | 'deadLetters'>,
    private readonly client: Pick<LazyNativeClient, 'get'>,
    private readonly taskQueue: string,
    private readonly logger: Logger,
    private readonly now: Clock = systemClock,
    private readonly maxQueued = MAX_QUEUED,
  ) {
    this.events = repos.webhookEvents;
    this.checkpoints = repos.relayCheckpoints;
    this.deadLetters = repos.deadLetters;
  }

  /**
   * Called before the inbox insert: until `accepted(ticket)`, the checkpoint cannot pass `receivedAt`, so an
   * event stored just before this instance dies is still found by recovery.
   */
  accepting(receivedAt: Date): number {
    const ticket = this.nextTicket++;
    this.accepting_.set(ticket, receivedAt);
    return ticket;
  }

  /** The insert is over (stored and handed to forwardSoon, a duplicate, or failed). */
  accepted(ticket: number): void {
    this.accepting_.delete(ticket);
  }

  /** Queues the accepted event for relaying in the background. */
  forwardSoon(record: WebhookEventRecord): void {
    if (this.inFlight.has(record._id) || this.queuedIds.has(record._id)) return;
    if (!this.unrelayed.has(record._id)) this.unrelayed.set(record._id, record.receivedAt);
    if (this.queuedIds.size >= this.maxQueued) {
      // Bounded memory: the event is in the inbox; readBack() fetches it when there is room again.
      this.overflowed = true;
      return;
    }
    this.waiting.push(record.scope, queueKey(record), record);
    this.queuedIds.add(record._id);
    this.pump();
  }

  /**
   * After an overflow: reads this instance's own unrelayed events back from the inbox, oldest first, half a
   * queue's worth at a time, until none is left behind.
   */
  private async readBack(): Promise<void> {
    if (!this.overflowed || this.queuedIds.size > this.maxQueued / 2) return;
    this.overflowed = false;
    const owed = [...this.unrelayed.entries()].filter(([id]) => !this.inFlight.has(id) && !this.queuedIds.has(id));
    if (owed.length === 0) return;
    const since = owed.reduce((min, [, at]) => (at < min ? at : min), owed[0]![1]);
    const batch = await this.events.acceptedSince(this.instanceId, since, Math.ceil(this.maxQueued / 2));
    const wanted = new Set(owed.map(([id]) => id));
    for (const record of batch) if (wanted.has(record._id)) this.forwardSoon(record);
    if (owed.length > batch.length) this.overflowed = true;
  }

  private pump(): void {
    while (this.calls < RELAY_CALLS_IN_FLIGHT) {
      const next = this.waiting.take(
        (key) => this.busy.has(key),
        takeBatch,
        (scope) => (this.scopeCalls.get(scope) ?? 0) >= RELAY_CALLS_PER_SCOPE,
      );
      if (!next) return;
      this.send(next.key, next.tenant, next.items);
    }
  }

  private send(key: string, scope: string, batch: WebhookEventRecord[]): void {
    this.busy.add(key);
    this.scopeCalls.set(scope, (this.scopeCalls.get(scope) ?? 0) + 1);
    for (const r of batch) {
      this.queuedIds.delete(r._id);
      this.inFlight.add(r._id);
    }
    this.calls += 1;
    void this.relayBatch(batch)
      .then((failed) => {
        for (const r of batch) {
          const err = failed.get(r._id);
          if (err === undefined) {
            this.unrelayed.delete(r._id);
            this.failures.delete(r._id);
          } else this.retryLater(r, err);
        }
      })
      .finally(() => {
        this.calls -= 1;
        const left = (this.scopeCalls.get(scope) ?? 1) - 1;
        if (left > 0) this.scopeCalls.set(scope, left);
        else this.scopeCalls.delete(scope);
        this.busy.delete(key);
        for (const r of batch) this.inFlight.delete(r._id);
        if (this.inFlight.size === 0 && this.queuedIds.size === 0) for (const wake of this.idleWaiters) wake();
        this.pump();
      });
  }

  /**
   * Relays a batch; what failed, by record id. A batch Temporal refuses is tried again an event at a time, so
   * that only an event it refuses for good is parked, and the others go through.
   */
  private async relayBatch(batch: WebhookEventRecord[]): Promise<Map<string, unknown>> {
    const failed = new Map<string, unknown>();
    if (batch.length > 1) {
      try {
        await this.forwardAll(batch);
        return failed;
      } catch (err) {
        if (!isPermanentRefusal(err)) {
          for (const r of batch) failed.set(r._id, err);
          return failed;
        }
      }
    }
    for (const r of batch) await this.relay(r).catch((err: unknown) => failed.set(r._id, err));
    return failed;
  }

  /**
   * A failed relay stays in `unrelayed` (so the checkpoint stays behind it) and is retried from memory with a
   * growing delay; one that has failed for a day is parked as a dead letter, which ends the loop.
   */
  private retryLater(record: WebhookEventRecord, err: unknown): void {
    const nowMs = this.now().getTime();
    const failure = this.failures.get(record._id) ?? { firstMs: nowMs, count: 0 };
    failure.count += 1;
    this.failures.set(record._id, failure);
    if (nowMs - failure.firstMs >= GIVE_UP_AFTER_MS) {
      this.park(
        record,
        `not relayed for ${Math.round((nowMs - failure.firstMs) / 3_600_000)} h (${failure.count} attempts): ${(err as Error).message}`,
      ).then(
        () => {
          this.unrelayed.delete(record._id);
          this.failures.delete(record._id);
        },
        (parkErr: unknown) => {
          this.logger.warn({ err: parkErr, eventId: record.eventId }, 'dead letter could not be written; will retry');
          setTimeout(() => this.forwardSoon(record), relayRetryDelay(failure.count)).unref();
        },
      );
      return;
    }
    this.logger.warn({ err, eventId: record.eventId, attempt: failure.count }, 'relay failed; will retry');
    setTimeout(() => this.forwardSoon(record), relayRetryDelay(failure.count)).unref();
  }

  /** Forwards the event, or parks it when Temporal refuses it for good. Rejects when it may work later. */
  private async relay(record: WebhookEventRecord): Promise<void> {
    try {
      await this.forward(record);
    } catch (err) {
      if (!isPermanentRefusal(err)) throw err;
      await this.park(record, `Temporal refused the event: ${(err as Error).message}`);
    }
  }

  private async park(record: WebhookEventRecord, reason: string): Promise<void> {
    const { scope, eventId, type, subscriberId, workflowId } = record;
    const id = await this.deadLetters.park(
      {
        key: deadLetterKey({ stage: 'relay', scope, eventId }),
        scope,
        stage: 'relay',
        eventId,
        type,
        subscriberId,
        workflowId,
        reason,
        payload: record.eventJson,
      },
      this.now(),
    );
    this.logger.error({ deadLetter: id, scope, eventId, subscriberId, reason }, 'webhook event parked as a dead letter');
  }

  /** One signal-with-start carrying events of one subscriber, in order (one event alone travels as it always did). */
  private async forwardAll(records: WebhookEventRecord[]): Promise<void> {
    const { scope, subscriberId } = records[0]!;
    const messages = records.map((r) => ({ kind: 'event' as const, event: parseStoredEvent(r), receivedAtMs: r.receivedAt.getTime() }));
    const deadline = Date.now() + FORWARD_TIMEOUT_MS;
    const client = await this.client.get(deadline);
    await client.connection.withDeadline(deadline, () =>
      signalSubscriberEvents(client, this.taskQueue, { scope, subscriberId: subscriberId! }, messages, this.now),
    );
  }

  async forward(record: WebhookEventRecord): Promise<void> {
    if (record.workflowId && record.subscriberId) await this.forwardAll([record]);
  }

  /** Persists "everything accepted before T is relayed", T being the oldest event still owed. */
  async checkpoint(): Promise<void> {
    let safeUntil = this.now();
    for (const receivedAt of [...this.accepting_.values(), ...this.unrelayed.values()]) if (receivedAt < safeUntil) safeUntil = receivedAt;
    await this.checkpoints.save(this.instanceId, safeUntil);
  }

  /** Re-forwards what dead instances accepted after their last checkpoint; returns how many events. */
  recover(): Promise<number> {
    this.recovering ??= (async () => {
      let forwarded = 0;
      try {
        const dead = await this.checkpoints.stale(STALE_AFTER_MS);
        for (const checkpoint of dead.filter((c) => c._id !== this.instanceId)) {
          for (;;) {
            const batch = await this.events.acceptedSince(checkpoint._id, checkpoint.safeUntil, 500);
            // Refused events are parked and passed; any other failure stops here and recovery runs again later.
            for (const record of batch) await this.relay(record);
            forwarded += batch.length;
            if (batch.length < 500) break;
            checkpoint.safeUntil = batch[batch.length - 1]!.receivedAt;
          }
          await this.checkpoints.removeIfUnchanged(checkpoint);
          this.logger.info({ deadInstance: checkpoint._id, forwarded }, 'relayed the events a stopped API instance had accepted');
        }
        return forwarded;
      } finally {
        this.recovering = null;
      }
    })();
    return this.recovering;
  }

  /** What the relay holds, for /metrics and tests: memory stays bounded by maxQueued however much is owed. */
  stats(): { queued: number; inFlight: number; owed: number } {
    return { queued: this.queuedIds.size, inFlight: this.inFlight.size, owed: this.unrelayed.size };
  }

  /** How long the oldest accepted event has waited to be relayed, in ms (0: nothing waits). */
  lagMs(now: number = Date.now()): number {
    let oldest = now;
    for (const at of this.unrelayed.values()) oldest = Math.min(oldest, at.getTime());
    return now - oldest;
  }

  /** Resolves once nothing is queued or in flight. */
  idle(): Promise<void> {
    if (this.inFlight.size === 0 && this.queuedIds.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.idleWaiters.delete(wake);
        resolve();
      };
      this.idleWaiters.add(wake);
    });
  }

  /** Writes the first checkpoint (before any event is accepted), then keeps it fresh and watches for dead peers. */
  async start(): Promise<void> {
    // With the store down at start-up, the first checkpoint fails: the interval below writes it once it is back.
    await this.checkpoint().catch((err: unknown) => this.logger.warn({ err }, 'relay checkpoint failed; will retry'));
    const every = (ms: number, what: string, fn: () => Promise<unknown>) =>
      this.timers.push(setInterval(() => void fn().catch((err: unknown) => this.logger.warn({ err }, `${what} failed; will retry`)), ms));
    every(CHECKPOINT_INTERVAL_MS, 'relay checkpoint', () => this.checkpoint());
    every(RECOVERY_INTERVAL_MS, 'relay recovery', () => this.recover());
    every(CHECKPOINT_INTERVAL_MS, 'relay read-back', () => this.readBack());
    void this.recover().catch((err: unknown) => this.logger.warn({ err }, 'relay recovery failed; will retry'));
  }

  /**
   * Stops, after relaying what is in hand. With nothing owed the checkpoint is removed; otherwise it is left to
   * go stale, and another instance relays the rest.
   */
  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    // Bounded: during a Temporal outage the queue does not drain; what is left goes to whoever recovers it.
    const waited = new Promise<void>((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref());
    await Promise.race([Promise.allSettled([this.recovering ?? Promise.resolve(0), this.idle()]), waited]);
    // Bounded too: a store that does not answer (seen under CPU starvation: a delete unanswered for over a minute)
    // must not hold the shutdown. A checkpoint left behind goes stale, and a peer re-forwards from it (harmless:
    // the workflows skip what they applied).
    const written = this.unrelayed.size === 0 && this.accepting_.size === 0 ? this.checkpoints.remove(this.instanceId) : this.checkpoint();
    const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref());
    await Promise.race([written.catch(() => undefined), gaveUp]);
  }
}

/** Events of one subscriber share a key (and a call); one that names no subscriber travels alone. */
function queueKey(record: WebhookEventRecord): string {
  return record.workflowId && record.subscriberId ? record.workflowId : `record:${record._id}`;
}

/** Takes from the front of a subscriber's waiting events as many as one signal may carry (at least one). */
function takeBatch(list: WebhookEventRecord[]): WebhookEventRecord[] {
  let count = 1;
  let chars = list[0]!.eventJson.length;
  while (count < list.length && count < EVENT_BATCH_MAX && chars + list[count]!.eventJson.length <= EVENT_BATCH_CHARS) {
    chars += list[count]!.eventJson.length;
    count += 1;
  }
  return list.splice(0, count);
}
