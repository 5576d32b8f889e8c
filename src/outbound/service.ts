/**
 * Outbound webhooks' application layer (private preview): early access, endpoints (registration under the URL
 * guard and the per-app bound, updates, secret rotation) and deliveries started by a person (a test event,
 * a redelivery, every failed one since a time), bounded per endpoint and per app. The API's routes map HTTP to
 * these calls and `OutboundRefused` to problem answers; the CLI and tests call them without HTTP.
 */
import type { Client } from '@temporalio/client';
import { ulid } from 'ulid';
import type { Config } from '../config/config';
import type { Clock } from '../config/clock';
import { RateLimiter } from '../contracts/rate-limit';
import type { AppRecord, AppRepository } from '../store/apps';
import {
  MAX_ENDPOINTS_PER_APP,
  pendingDelivery,
  type DeliveryRecord,
  type EndpointRecord,
  type EndpointRepository,
  type DeliveryRepository,
} from '../store/outbound';
import { startDelivery } from '../temporal/clients/outbound-delivery';
import { bodyOf, WEBHOOK_TEST } from './payload';
import { generateEndpointSecret, messageIdFor } from './signing';
import { checkUrl, resolveSafely, UnsafeUrlError } from './url-guard';

/** How many failed deliveries one redeliver-failed call starts again; call again with a later `since` for more. */
export const MAX_REDELIVER_BATCH = 500;

export type OutboundRefusal =
  | { kind: 'unsafe_url'; reason: string }
  | { kind: 'too_many_endpoints' }
  | { kind: 'endpoint_disabled' }
  | { kind: 'delivery_in_progress' }
  | { kind: 'rate_limited'; retryAfterSeconds: number; perMinute: number };

/** What the service will not do, and why; the route answers each with its problem. */
export class OutboundRefused extends Error {
  constructor(readonly refusal: OutboundRefusal) {
    super(refusal.kind);
  }
}

export interface EndpointInput {
  url?: string;
  eventTypes?: string[] | null;
  description?: string;
  disabled?: boolean;
}

export interface OutboundServiceDeps {
  apps: Pick<AppRepository, 'setOutboundAccess' | 'get'>;
  endpoints: EndpointRepository;
  deliveries: DeliveryRepository;
  temporal: Client;
  config: Config;
  now: Clock;
}

export class OutboundService {
  // Every delivery started by hand runs a workflow that retries for up to a day: bounded per endpoint and per app.
  private readonly perEndpoint: RateLimiter;
  private readonly perApp: RateLimiter;

  constructor(private readonly deps: OutboundServiceDeps) {
    const perMinute = deps.config.outbound.manualPerMinute;
    this.perEndpoint = new RateLimiter(perMinute, 60_000);
    this.perApp = new RateLimiter(3 * perMinute, 60_000);
  }

  /** Grants or withdraws early access; null when the app does not exist. */
  async setAccess(slug: string, enabled: boolean, contactEmail: string | null | undefined): Promise<AppRecord | null> {
    if (!(await this.deps.apps.setOutboundAccess(slug, enabled, contactEmail))) return null;
    return this.deps.apps.get(slug);
  }

  /** Registers an endpoint (a new signing secret; the only time it is shown is in the answer to this call). */
  async createEndpoint(app: string, input: EndpointInput & { url: string }): Promise<EndpointRecord> {
    const { endpoints } = this.deps;
    await this.checkUrl(input.url);
    if ((await endpoints.count(app)) >= MAX_ENDPOINTS_PER_APP) throw new OutboundRefused({ kind: 'too_many_endpoints' });
    const at = this.deps.now();
    const record: EndpointRecord = {
      _id: `ep_${ulid()}`,
      app,
      url: input.url,
      eventTypes: input.eventTypes ?? null,
      description: input.description ?? '',
      disabled: input.disabled ?? false,
      disabledReason: input.disabled ? 'user' : null,
      secret: generateEndpointSecret(),
      previousSecret: null,
      previousSecretValidUntil: null,
      failingSince: null,
      createdAt: at,
      updatedAt: at,
    };
    await endpoints.insert(record);
    // Two registrations racing past the count above: the later one(s) step back, so the limit holds.
    if ((await endpoints.count(app)) > MAX_ENDPOINTS_PER_APP) {
      await endpoints.remove(app, record._id);
      throw new OutboundRefused({ kind: 'too_many_endpoints' });
    }
    return record;
  }

  async updateEndpoint(endpoint: EndpointRecord, input: EndpointInput): Promise<EndpointRecord> {
    if (input.url !== undefined) await this.checkUrl(input.url);
    const set: Partial<EndpointRecord> = { updatedAt: this.deps.now() };
    if (input.url !== undefined) set.url = input.url;
    if (input.eventTypes !== undefined) set.eventTypes = input.eventTypes;
    if (input.description !== undefined) set.description = input.description;
    if (input.disabled !== undefined && input.disabled !== endpoint.disabled) {
      set.disabled = input.disabled;
      set.disabledReason = input.disabled ? 'user' : null;
      // Enabled again: the failing streak starts over, so it is not disabled again at the next failure.
      if (!input.disabled) set.failingSince = null;
    }
    return (await this.deps.endpoints.update(endpoint.app, endpoint._id, set))!;
  }

  /** A new secret; the previous one keeps verifying for the rotation grace period. */
  async rotateSecret(endpoint: EndpointRecord): Promise<{ secret: string; previousSecretValidUntil: Date }> {
    const at = this.deps.now();
    const secret = generateEndpointSecret();
    const previousSecretValidUntil = new Date(at.getTime() + this.deps.config.webhooks.rotationGraceHours * 3600 * 1000);
    await this.deps.endpoints.update(endpoint.app, endpoint._id, {
      secret,
      previousSecret: endpoint.secret,
      previousSecretValidUntil,
      updatedAt: at,
    });
    return { secret, previousSecretValidUntil };
  }

  /** Sends a WEBHOOK_TEST event to the endpoint; the delivery's id. */
  async sendTest(endpoint: EndpointRecord): Promise<string> {
    this.startedByHand(endpoint);
    const at = this.deps.now();
    const eventId = `test_${ulid()}`;
    const event = {
      type: WEBHOOK_TEST,
      id: eventId,
      data: {
        subscriber: { id: 'test-subscriber', aliases: ['test-subscriber'] },
        state: { status: 'active' as const, entitlements: [], scheduledDowngrade: null },
        event: null,
      },
    };
    const id = messageIdFor(endpoint._id, eventId);
    await this.deps.deliveries.ensure(
      pendingDelivery(
        { _id: id, app: endpoint.app, endpointId: endpoint._id, eventId, eventType: WEBHOOK_TEST, body: bodyOf(event, at) },
        at,
      ),
    );
    await startDelivery(
      this.deps.temporal,
      this.deps.config,
      { app: endpoint.app, endpointId: endpoint._id, deliveryId: id, eventType: WEBHOOK_TEST },
      'first',
    );
    return id;
  }

  /** Sends one delivery again; null when the endpoint has no such delivery. */
  async redeliver(endpoint: EndpointRecord, deliveryId: string): Promise<string | null> {
    if (endpoint.disabled) throw new OutboundRefused({ kind: 'endpoint_disabled' });
    const delivery = await this.deps.deliveries.get(endpoint._id, deliveryId);
    if (!delivery) return null;
    this.startedByHand(endpoint);
    if (!(await this.startAgain(endpoint.app, delivery))) throw new OutboundRefused({ kind: 'delivery_in_progress' });
    return deliveryId;
  }

  /**
   * Sends again every delivery that failed since `since` (at most MAX_REDELIVER_BATCH). `inProgress`: marked
   * failed but its workflow had not closed yet (or was restarted by another call).
   */
  async redeliverFailed(endpoint: EndpointRecord, since: Date): Promise<{ redelivered: number; inProgress: number; limit: number }> {
    this.startedByHand(endpoint);
    const failed = await this.deps.deliveries.failedSince(endpoint._id, since, MAX_REDELIVER_BATCH);
    let redelivered = 0;
    let inProgress = 0;
    for (const f of failed) {
      if (await this.startAgain(endpoint.app, f)) redelivered++;
      else inProgress++;
    }
    return { redelivered, inProgress, limit: MAX_REDELIVER_BATCH };
  }

  /** A delivery a person asked for: refused on a disabled endpoint, and bounded per endpoint and per app. */
  private startedByHand(endpoint: EndpointRecord): void {
    if (endpoint.disabled) throw new OutboundRefused({ kind: 'endpoint_disabled' });
    const at = this.deps.now().getTime();
    const wait = this.perEndpoint.hit(endpoint._id, at) ?? this.perApp.hit(endpoint.app, at);
    if (wait !== null)
      throw new OutboundRefused({ kind: 'rate_limited', retryAfterSeconds: wait, perMinute: this.deps.config.outbound.manualPerMinute });
  }

  private async startAgain(app: string, d: Pick<DeliveryRecord, '_id' | 'endpointId' | 'eventType'>): Promise<boolean> {
    const started = await startDelivery(
      this.deps.temporal,
      this.deps.config,
      { app, endpointId: d.endpointId, deliveryId: d._id, eventType: d.eventType },
      'again',
    );
    if (started) await this.deps.deliveries.setStatus(d._id, 'pending', this.deps.now());
    return started;
  }

  /** Only globally routable addresses (the URL guard), and a host that resolves now. */
  private async checkUrl(raw: string): Promise<void> {
    const { allowLoopback } = this.deps.config.outbound;
    try {
      await resolveSafely(checkUrl(raw, allowLoopback), allowLoopback);
    } catch (err) {
      if (err instanceof UnsafeUrlError) throw new OutboundRefused({ kind: 'unsafe_url', reason: err.message });
      // DNS failure: the name does not resolve now; the sender could not reach it either.
      throw new OutboundRefused({ kind: 'unsafe_url', reason: 'host does not resolve' });
    }
  }
}
