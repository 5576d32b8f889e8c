/** Collection names, in one place so indexes, repositories and tests agree. */
export const COLLECTIONS = {
  orgs: 'orgs',
  projects: 'projects',
  documents: 'documents',
  documentRevisions: 'document_revisions',
  /** Each person's first contribution to a project (commit or merged pull request), kept by every document write. */
  firstContributions: 'first_contributions',
  invocations: 'invocations',
  invocationContexts: 'invocation_contexts',
  invocationResults: 'invocation_results',
  idempotencyKeys: 'idempotency_keys',
  apps: 'apps',
  webhookEvents: 'webhook_events',
  relayCheckpoints: 'webhook_relay_checkpoints',
  subscribers: 'billing_subscribers',
  billingMetrics: 'billing_metrics',
  billingDaily: 'billing_daily',
  billingTimeline: 'billing_timeline',
  /** The event charts' days (billing-event-series.ts). */
  billingEventDays: 'billing_event_days',
  /** Every webhook delivery and what became of it, per scope (event-log.ts). */
  eventLog: 'billing_event_log',
  eventLogCounters: 'billing_event_log_counters',
  outbox: 'mail_outbox',
  deadLetters: 'dead_letters',
  /** Subscribers whose totals delta is refused, while it lasts (owed-totals.ts). */
  owedTotals: 'billing_totals_owed',
  outboundEndpoints: 'outbound_webhook_endpoints',
  outboundDeliveries: 'outbound_webhook_deliveries',
  outboundCounters: 'outbound_webhook_counters',
  /** One record per data migration that has run to the end, so start-up skips it afterwards. */
  migrations: 'migrations',
} as const;
