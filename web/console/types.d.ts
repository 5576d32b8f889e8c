// The API's answers as the console reads them (the OpenAPI document at /openapi.json is the full contract).
// Only for the type check; not served.

export interface Subscription {
  key: string;
  status: string;
  productId: string | null;
  store: string | null;
  environment: string | null;
  periodType: string | null;
  isFamilyShare: boolean;
  priceUsd: number | null;
  purchasedAtMs: number | null;
  expiresAtMs: number | null;
  mrrMicros: number;
}

export interface Customer {
  scope: string;
  id: string;
  aliases: string[];
  mergedInto: string | null;
  status: string;
  entitlements: { id: string; productId: string | null; expiresAt: string | null }[];
  flags: { type: string; since: string; eventId: string }[];
  scheduledDowngrade: { at: string; reason: string } | null;
  mrrContribution: number;
  lastEvent: { id: string; type: string; at: string } | null;
  workflowId: string;
  workflowUrl?: string | null;
  subscriptions?: Subscription[];
  /** The single customer's read only. */
  facts?: {
    since: string | null;
    lifetimeSpendUsd: number;
    refunds: { count: number; amountUsd: number };
    country: string | null;
    partial: boolean;
  };
}

export interface EventFacts {
  priceUsd: number | null;
  currency: string | null;
  store: string | null;
  productId: string | null;
  environment: string | null;
  country: string | null;
  periodType: string | null;
  transactionId: string | null;
  originalTransactionId: string | null;
  kind: 'purchase' | 'renewal' | 'conversion' | 'one_time' | 'refund' | 'expiration' | 'other';
}

export interface Snapshot {
  status: string;
  entitlements: { id: string; expiresAt: string | null }[];
  flagged: boolean;
  scheduledDowngradeAt: string | null;
  mrrContribution: number;
}

export interface TimelineEntry {
  eventId: string;
  type: string;
  providerAt: string | null;
  receivedAt: string | null;
  appliedAt: string;
  version: number;
  before: Snapshot | null;
  after: Snapshot;
  ownChange: boolean;
  facts: EventFacts | null;
}

export interface DeadLetter {
  id: string;
  scope: string;
  stage: string;
  status: string;
  eventId: string | null;
  type: string | null;
  subscriberId: string | null;
  reason: string;
  parkedAt: string;
  attempts: number;
  retriedAt: string | null;
  workflowId: string | null;
  workflowUrl: string | null;
  retryable: boolean;
  notRetryableReason: string | null;
  discardedAt: string | null;
  discardReason: string | null;
  discardedBy: string | null;
}

export interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  disabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
}

export interface Attempt {
  attempt: number;
  at: string;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  responseBody?: string | null;
  responseBodyTruncated?: boolean;
}

export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: Attempt[];
  nextRetryAt: string | null;
  responseBodyLimitBytes?: number;
  request: { url: string; headers: Record<string, string>; body: string };
}

export interface Citation {
  id: string;
  kind: string;
  title: string;
  url: string | null;
}

export interface Invocation {
  id: string;
  project: string;
  skill: string;
  inputs: Record<string, unknown>;
  status: string;
  progress: { step: string; completedSteps: number; totalSteps: number };
  createdAt: string;
  durationMs?: number | null;
  generator?: string | null;
  requestedBy?: string | null;
  workflowId?: string;
  workflowUrl?: string | null;
  /** Which version of the result this is; `final: false` while the model's rewrite of the draft is coming. */
  revision?: { number: number; final: boolean };
  result: { markdown?: string; markdownWithCitations?: string; citations?: Citation[]; notes?: string[] } | null;
  error: { message: string } | null;
}

/** GET /readyz's `backlog`: how far behind the service runs (src/temporal/queue-backlog.ts). */
export interface Backlog {
  status: 'ok' | 'lagging';
  relay: { events: number; lagSeconds: number };
  queues: Record<string, { tasks: number; ageSeconds: number } | null>;
}
