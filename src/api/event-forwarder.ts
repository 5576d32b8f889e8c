import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { Logger } from '../logger';
import { SEARCH_ATTRIBUTES } from '../temporal';
import { WebhookEventRepository, parseStoredEvent, type WebhookEventRecord } from '../store/webhook-events';
import { providerEventSignal, type BillingSubscriberStart } from '../workflows/billing-messages';

/** Crash recovery only (the accepting request forwards at once), so an infrequent sweep is enough. */
const SWEEP_INTERVAL_MS = 10_000;
/** An event younger than this is presumably still being forwarded by the request that accepted it. */
const SWEEP_GRACE_MS = 10_000;
/** Signal-with-start calls in flight at once; the rest wait in memory (and in the inbox, should we crash). */
const MAX_IN_FLIGHT = 32;

/**
 * The outbox relay: moves accepted webhook events into their subscriber's entity workflow with
 * signal-with-start. The request that accepted an event hands it over at once; a periodic sweep picks up
 * whatever a crash or an unreachable Temporal left behind. Forwarding twice is harmless: the workflow ignores
 * event ids it has applied, so delivery from here is at-least-once and the effect exactly once.
 */
export class EventForwarder {
  private readonly events: WebhookEventRepository;
  private timer: NodeJS.Timeout | null = null;
  private readonly queue: WebhookEventRecord[] = [];
  private readonly inFlight = new Set<string>();
  private readonly settled = new Set<() => void>();
  private sweeping: Promise<number> | null = null;

  constructor(
    db: Db,
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.events = new WebhookEventRepository(db);
  }

  /** Queues the event for forwarding in the background; a failure is left for the sweep. */
  forwardSoon(record: WebhookEventRecord): void {
    if (this.inFlight.has(record._id)) return;
    this.queue.push(record);
    this.pump();
  }

  private pump(): void {
    while (this.inFlight.size < MAX_IN_FLIGHT && this.queue.length > 0) {
      const record = this.queue.shift()!;
      if (this.inFlight.has(record._id)) continue;
      this.inFlight.add(record._id);
      this.forward(record)
        .catch((err: unknown) => this.logger.warn({ err, eventId: record.eventId }, 'forwarding deferred to the sweep'))
        .finally(() => {
          this.inFlight.delete(record._id);
          if (this.inFlight.size === 0 && this.queue.length === 0) for (const resolve of this.settled) resolve();
          this.pump();
        });
    }
  }

  async forward(record: WebhookEventRecord): Promise<void> {
    if (!record.workflowId || !record.subscriberId) return;
    const start: BillingSubscriberStart = { scope: record.scope, subscriberId: record.subscriberId };
    await this.client.workflow.signalWithStart('billingSubscriber', {
      workflowId: record.workflowId,
      taskQueue: this.taskQueue,
      args: [start],
      signal: providerEventSignal,
      signalArgs: [parseStoredEvent(record)],
      typedSearchAttributes: [
        { key: SEARCH_ATTRIBUTES.BillingScope, value: record.scope },
        { key: SEARCH_ATTRIBUTES.SubscriberId, value: record.subscriberId },
      ],
      staticSummary: `Billing subscriber ${record.subscriberId} (${record.scope})`,
    });
    await this.events.markForwarded(record._id, this.now());
  }

  /** Queues every pending event older than the grace period (oldest first) and waits until they are handled. */
  sweep(): Promise<number> {
    this.sweeping ??= (async () => {
      try {
        const batch = (await this.events.pending(new Date(this.now().getTime() - SWEEP_GRACE_MS), 1_000)).filter((r) => !this.inFlight.has(r._id));
        for (const record of batch) this.forwardSoon(record);
        await this.idle();
        return batch.length;
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  /** Resolves once nothing is queued or in flight. */
  idle(): Promise<void> {
    if (this.inFlight.size === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.settled.delete(done);
        resolve();
      };
      this.settled.add(done);
    });
  }

  start(): void {
    this.timer ??= setInterval(() => {
      this.sweep().then(
        (n) => n > 0 && this.logger.info({ forwarded: n }, 'outbox sweep forwarded pending events'),
        (err: unknown) => this.logger.warn({ err }, 'outbox sweep failed; will retry'),
      );
    }, SWEEP_INTERVAL_MS);
  }

  /** Stops sweeping and waits for work in progress, so the store can be closed safely afterwards. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([this.sweeping ?? Promise.resolve(0), this.idle()]);
  }
}
