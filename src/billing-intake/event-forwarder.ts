import { randomUUID } from 'node:crypto';
import type { Logger } from '../logging/logger';
import { isPermanentRefusal } from '../temporal/failures';
import { deadLetterKey } from '../billing/dead-letter-key';
import { signalSubscriberEvents } from '../temporal/clients/billing-subscriber';
import type { Repositories } from '../store/repositories';
import { parseStoredEvent, type WebhookEventRecord } from '../store/webhook-events';
import { systemClock, type Clock } from '../config/clock';
import type { LazyNativeClient } from '../temporal/client';
import { RelayLedger } from './relay-ledger';
import { RelayQueue } from './relay-queue';

const CHECKPOINT_INTERVAL_MS = 2_000;
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
/** How long stop() waits for in-flight relays, and then for its last checkpoint write, before giving up on each. */
const STOP_WAIT_MS = 10_000;

export interface EventForwarderOptions {
  repos: Pick<Repositories, 'webhookEvents' | 'relayCheckpoints' | 'deadLetters'>;
  /** The relay's own Temporal client, connected on first use (src/temporal/client.ts). */
  client: Pick<LazyNativeClient, 'get'>;
  /** The billing task queue the subscriber workflows run on. */
  taskQueue: string;
  logger: Logger;
  now?: Clock;
  /** Events held in memory at most (default 20,000); past it they are read back from the inbox. */
  maxQueued?: number;
  /** How long stop() waits for the relays in hand, and then for its checkpoint write (default 10 s each). */
  stopWaitMs?: number;
}

/**
 * The relay from the durable inbox to the entity workflows (signal-with-start). The request that accepted an
 * event hands it over at once and the ack never waits for it. What this instance owes, and its checkpoint in the
 * store, are its ledger's (relay-ledger.ts); the events in memory and the calls, its queue's (relay-queue.ts);
 * here is the policy: what a call sends, retrying and parking what fails, reading back what did not fit in memory,
 * and the timers. Forwarding twice is harmless, since the workflow skips event ids it has applied: delivery from
 * here is at-least-once and the effect exactly once.
 */
export class EventForwarder {
  readonly instanceId = randomUUID();
  private readonly ledger: RelayLedger;
  private readonly queue: RelayQueue;
  private readonly now: Clock;
  private readonly maxQueued: number;
  /** Failed relays by record id: when the first failure was and how many there were. Bounded like what is owed. */
  private readonly failures = new Map<string, { firstMs: number; count: number }>();
  /** Owed events were refused by the full queue: they wait in the inbox for `readBack`. */
  private overflowed = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly options: EventForwarderOptions) {
    this.now = options.now ?? systemClock;
    this.maxQueued = options.maxQueued ?? MAX_QUEUED;
    this.ledger = new RelayLedger({
      instanceId: this.instanceId,
      checkpoints: options.repos.relayCheckpoints,
      events: options.repos.webhookEvents,
      logger: options.logger,
      now: this.now,
    });
    this.queue = new RelayQueue({ send: (batch) => this.send(batch), maxQueued: this.maxQueued });
  }

  /**
   * Called before the inbox insert: until `accepted(ticket)`, the checkpoint cannot pass `receivedAt`, so an
   * event stored just before this instance dies is still found by recovery.
   */
  accepting(receivedAt: Date): number {
    return this.ledger.accepting(receivedAt);
  }

  /** The insert is over (stored and handed to forwardSoon, a duplicate, or failed). */
  accepted(ticket: number): void {
    this.ledger.accepted(ticket);
  }

  /**
   * Queues the accepted event for relaying in the background; owed from `owedFrom`, the receipt time by which
   * recovery finds it: its `receivedAt` when this instance accepted it first, its `reacceptedAt` for a redelivery.
   */
  forwardSoon(record: WebhookEventRecord, owedFrom: Date = record.receivedAt): void {
    if (this.queue.holds(record._id)) return;
    this.ledger.owe(record._id, owedFrom);
    // Bounded memory: the event is in the inbox; readBack() fetches it when there is room again.
    if (!this.queue.offer(record)) this.overflowed = true;
  }

  /**
   * Resolves once this instance's checkpoint is sure to be in the store (relay-ledger.ts, `assureCheckpoint`): the
   * intake waits for it before acknowledging an event it owes.
   */
  assureCheckpoint(): Promise<void> {
    return this.ledger.assureCheckpoint();
  }

  /**
   * After an overflow: reads this instance's unrelayed events back from the inbox by id, oldest owed first, half a
   * queue's worth at a time, until none is left behind.
   */
  private async readBack(): Promise<void> {
    if (!this.overflowed || !this.queue.halfEmpty) return;
    this.overflowed = false;
    const owed = [...this.ledger.owedEvents()].filter(([id]) => !this.queue.holds(id));
    if (owed.length === 0) return;
    const ids = owed
      .sort(([, a], [, b]) => a.getTime() - b.getTime())
      .slice(0, Math.ceil(this.maxQueued / 2))
      .map(([id]) => id);
    const found = await this.options.repos.webhookEvents.getMany(ids);
    for (const record of found) this.forwardSoon(record);
    const gone = new Set(ids);
    for (const record of found) gone.delete(record._id);
    // Deleted from the inbox while owed (an operator, or retention): nothing is left to relay, and owing it would
    // hold the checkpoint back for good.
    for (const id of gone) {
      this.options.logger.error({ recordId: id }, 'an owed webhook event is no longer in the inbox; it cannot be relayed');
      this.ledger.settle(id);
    }
    if (owed.length > ids.length) this.overflowed = true;
  }

  /** One call of the queue: relays the batch, then settles each event or schedules its retry. */
  private async send(batch: WebhookEventRecord[]): Promise<void> {
    const failed = await this.relayBatch(batch);
    for (const r of batch) {
      const err = failed.get(r._id);
      if (err === undefined) {
        this.ledger.settle(r._id);
        this.failures.delete(r._id);
      } else this.retryLater(r, err);
    }
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
   * A failed relay stays owed (so the checkpoint stays behind it) and is retried from memory with a growing
   * delay; one that has failed for a day is parked as a dead letter, which ends the loop.
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
          this.ledger.settle(record._id);
          this.failures.delete(record._id);
        },
        (parkErr: unknown) => {
          this.options.logger.warn({ err: parkErr, eventId: record.eventId }, 'dead letter could not be written; will retry');
          setTimeout(() => this.forwardSoon(record), relayRetryDelay(failure.count)).unref();
        },
      );
      return;
    }
    this.options.logger.warn({ err, eventId: record.eventId, attempt: failure.count }, 'relay failed; will retry');
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
    const id = await this.options.repos.deadLetters.park(
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
    this.options.logger.error({ deadLetter: id, scope, eventId, subscriberId, reason }, 'webhook event parked as a dead letter');
  }

  /** One signal-with-start carrying events of one subscriber, in order (one event alone travels as it always did). */
  private async forwardAll(records: WebhookEventRecord[]): Promise<void> {
    const { scope, subscriberId } = records[0]!;
    const messages = records.map((r) => ({ kind: 'event' as const, event: parseStoredEvent(r), receivedAtMs: r.receivedAt.getTime() }));
    const deadline = Date.now() + FORWARD_TIMEOUT_MS;
    const client = await this.options.client.get(deadline);
    await client.connection.withDeadline(deadline, () =>
      signalSubscriberEvents(client, this.options.taskQueue, { scope, subscriberId: subscriberId! }, messages, this.now),
    );
  }

  async forward(record: WebhookEventRecord): Promise<void> {
    if (record.workflowId && record.subscriberId) await this.forwardAll([record]);
  }

  /** Persists "everything accepted before T is relayed", T being the oldest event still owed. */
  checkpoint(): Promise<void> {
    return this.ledger.checkpoint();
  }

  /** Re-forwards what dead instances accepted or re-accepted after their last checkpoint; returns how many events. */
  recover(): Promise<number> {
    return this.ledger.recover((record) => this.relay(record));
  }

  /** What the relay holds, for /metrics and tests: memory stays bounded by maxQueued however much is owed. */
  stats(): { queued: number; inFlight: number; owed: number } {
    return { queued: this.queue.queued, inFlight: this.queue.inCalls, owed: this.ledger.owed };
  }

  /** How long the oldest accepted event has waited to be relayed, in ms (0: nothing waits). */
  lagMs(now: number = Date.now()): number {
    return this.ledger.lagMs(now);
  }

  /** Resolves once nothing is queued or in flight. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** Writes the first checkpoint (before any event is accepted), then keeps it fresh and watches for dead peers. */
  async start(): Promise<void> {
    const { logger } = this.options;
    // With the store down at start-up, the first checkpoint fails: the interval below writes it once it is back.
    await this.checkpoint().catch((err: unknown) => logger.warn({ err }, 'relay checkpoint failed; will retry'));
    const every = (ms: number, what: string, fn: () => Promise<unknown>) =>
      this.timers.push(setInterval(() => void fn().catch((err: unknown) => logger.warn({ err }, `${what} failed; will retry`)), ms));
    every(CHECKPOINT_INTERVAL_MS, 'relay checkpoint', () => this.checkpoint());
    every(RECOVERY_INTERVAL_MS, 'relay recovery', () => this.recover());
    every(CHECKPOINT_INTERVAL_MS, 'relay read-back', () => this.readBack());
    void this.recover().catch((err: unknown) => logger.warn({ err }, 'relay recovery failed; will retry'));
  }

  /**
   * Stops, after relaying what is in hand. With nothing owed the checkpoint is removed; otherwise it is left to
   * go stale, and another instance relays the rest.
   */
  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const stopWaitMs = this.options.stopWaitMs ?? STOP_WAIT_MS;
    // Bounded: during a Temporal outage the queue does not drain; what is left goes to whoever recovers it.
    await Promise.race([Promise.allSettled([this.ledger.recovery ?? Promise.resolve(0), this.queue.idle()]), elapsed(stopWaitMs)]);
    // Bounded too: a store that does not answer (seen under CPU starvation: a delete unanswered for over a minute)
    // must not hold the shutdown. A checkpoint left behind goes stale, and a peer re-forwards from it (harmless:
    // the workflows skip what they applied).
    await Promise.race([this.ledger.retire().catch(() => undefined), elapsed(stopWaitMs)]);
  }
}

/** Resolves after `ms` without holding the process open. */
function elapsed(ms: number): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
}
