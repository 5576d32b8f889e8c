/** Collection names, in one place so indexes, repositories and tests agree. */
export const COLLECTIONS = {
  orgs: 'orgs',
  projects: 'projects',
  documents: 'documents',
  documentRevisions: 'document_revisions',
  invocations: 'invocations',
  invocationContexts: 'invocation_contexts',
  invocationResults: 'invocation_results',
  idempotencyKeys: 'idempotency_keys',
  apps: 'apps',
  webhookEvents: 'webhook_events',
  relayCheckpoints: 'webhook_relay_checkpoints',
  subscribers: 'billing_subscribers',
  subscriberAliases: 'billing_subscriber_aliases',
  billingMetrics: 'billing_metrics',
  outbox: 'mail_outbox',
  deadLetters: 'dead_letters',
} as const;
