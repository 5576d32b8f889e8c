import type { Db } from 'mongodb';
import { AppRepository } from './apps';
import { BillingDailyRepository } from './billing-daily';
import { BillingTimelineRepository } from './billing-timeline';
import { BillingTotalsRepository } from './billing-totals';
import { DeadLetterRepository } from './dead-letters';
import { DocumentRepository, type WholeKindCache } from './documents';
import { EventLogRepository } from './event-log';
import { IdempotencyRepository } from './idempotency';
import { InvocationContextRepository } from './invocation-contexts';
import { InvocationRepository } from './invocations';
import { MailOutbox } from './mail-outbox';
import { pingStore } from './mongo';
import { DeliveryRepository, EndpointRepository, OutboundCounters } from './outbound';
import { ProjectRepository } from './projects';
import { OwedTotalsRepository } from './owed-totals';
import { RelayCheckpointRepository } from './relay-checkpoints';
import { SubscriberRepository } from './subscribers';
import { WebhookEventRepository } from './webhook-events';

/**
 * Every repository over one database, built once by a process's composition root (server.ts, worker.ts, the
 * CLI) and injected, so no route, service or activity holds the raw `Db`.
 */
export function createRepositories(db: Db, options: { documentCache?: WholeKindCache } = {}) {
  const webhookEvents = new WebhookEventRepository(db);
  const billingDaily = new BillingDailyRepository(db);
  return {
    apps: new AppRepository(db),
    projects: new ProjectRepository(db),
    documents: new DocumentRepository(db, options.documentCache ?? null),
    invocations: new InvocationRepository(db),
    invocationContexts: new InvocationContextRepository(db),
    idempotency: new IdempotencyRepository(db),
    webhookEvents,
    relayCheckpoints: new RelayCheckpointRepository(db),
    deadLetters: new DeadLetterRepository(db),
    subscribers: new SubscriberRepository(db),
    owedTotals: new OwedTotalsRepository(db),
    billingTotals: new BillingTotalsRepository(db, billingDaily),
    billingDaily,
    billingTimeline: new BillingTimelineRepository(db, webhookEvents),
    eventLog: new EventLogRepository(db),
    outboundEndpoints: new EndpointRepository(db),
    outboundDeliveries: new DeliveryRepository(db),
    outboundCounters: new OutboundCounters(db),
    mailOutbox: new MailOutbox(db),
    /** One round trip to the store (readiness probes). */
    ping: () => pingStore(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
