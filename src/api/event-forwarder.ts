import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { Logger } from '../logger';
import { SEARCH_ATTRIBUTES } from '../temporal';
import { WebhookEventRepository, parseStoredEvent, type WebhookEventRecord } from '../store/webhook-events';
import { providerEventSignal, type BillingSubscriberStart } from '../workflows/billing-messages';

const SWEEP_INTERVAL_MS = 1_000;
/** An event younger than this is presumably still being forwarded by the request that accepted it. */
const SWEEP_GRACE_MS = 2_000;

/**
 * The outbox relay: moves accepted webhook events into their subscriber's entity workflow with
 * signal-with-start. The request that accepted an event forwards it at once; a sweep picks up whatever a crash
 * or an unreachable Temporal left behind. Forwarding twice is harmless: the workflow ignores event ids it has
 * applied, so redelivery from here is at-least-once and the effect exactly once.
 */
export class EventForwarder {
  private readonly events: WebhookEventRepository;
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private sweeping = false;

  constructor(
    db: Db,
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.events = new WebhookEventRepository(db);
  }

  /** Forwards in the background; failures are left for the sweep. */
  forwardSoon(record: WebhookEventRecord): void {
    const p = this.forward(record)
      .catch((err: unknown) => this.logger.warn({ err, eventId: record.eventId }, 'forwarding deferred to the sweep'))
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
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

  /** Forwards every pending event older than the grace period, oldest first. */
  async sweep(): Promise<number> {
    if (this.sweeping) return 0;
    this.sweeping = true;
    let forwarded = 0;
    try {
      for (;;) {
        const batch = await this.events.pending(new Date(this.now().getTime() - SWEEP_GRACE_MS), 100);
        for (const record of batch) {
          await this.forward(record);
          forwarded += 1;
        }
        if (batch.length < 100) break;
      }
    } finally {
      this.sweeping = false;
    }
    return forwarded;
  }

  start(): void {
    this.timer ??= setInterval(() => {
      this.sweep().then(
        (n) => n > 0 && this.logger.info({ forwarded: n }, 'outbox sweep forwarded pending events'),
        (err: unknown) => this.logger.warn({ err }, 'outbox sweep failed; will retry'),
      );
    }, SWEEP_INTERVAL_MS);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.inFlight]);
  }
}
