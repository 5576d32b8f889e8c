import type { BillingEvent } from '../billing/provider-events';
import type { BillingScope } from '../billing/subscriber-id';
import { bodyOf, outboundEventOf, type OutboundSubscriber } from '../outbound/payload';
import { parseStoredEvent } from '../store/webhook-events';
import { postWebhook } from '../outbound/sender';
import { messageIdFor, signatureHeader, signingSecrets } from '../outbound/signing';
import { startDelivery } from '../temporal/clients/outbound-delivery';
import { checkUrl, resolveSafely, UnsafeUrlError } from '../outbound/url-guard';
import { MAX_RESPONSE_BODY_KEPT, pendingDelivery, type EndpointRecord } from '../store/outbound';
import type { AttemptOutcome } from '../contracts/workflows/outbound-delivery';
import type { DepsOf } from './deps';
import { sendOnce } from './send-once';

const APP_SCOPE_PREFIX = 'app:';

/** Outbound webhooks: fan an applied event out to an app's endpoints, and make one delivery attempt. */
export function createOutboundActivities(
  deps: DepsOf<
    'apps' | 'outboundEndpoints' | 'outboundDeliveries' | 'outboundCounters' | 'mailOutbox' | 'webhookEvents',
    'config' | 'logger' | 'temporal' | 'mailer'
  >,
) {
  const {
    apps,
    outboundEndpoints: endpoints,
    outboundDeliveries: deliveries,
    outboundCounters: counters,
    mailOutbox: outbox,
    webhookEvents,
  } = deps.repos;
  const { now } = deps;
  const cfg = deps.config.outbound;

  return {
    /**
     * After an event is applied (or a scheduled downgrade fires): one delivery per enabled endpoint of the app
     * whose filter matches. Safe to repeat: delivery ids derive from endpoint and event, and a delivery's
     * workflow is started once.
     */
    async dispatchOutboundEvent(args: {
      scope: BillingScope;
      state: OutboundSubscriber;
      /** The event as it came (activities scheduled before `eventRef` existed carry it here). */
      event: BillingEvent | null;
      /** The applied event, read as received from the inbox. */
      eventRef?: { id: string; type: string } | null;
      downgradeId: string | null;
    }): Promise<number> {
      if (!args.scope.startsWith(APP_SCOPE_PREFIX)) return 0;
      const slug = args.scope.slice(APP_SCOPE_PREFIX.length);
      const app = await apps.get(slug);
      if (!app?.outboundAccess) return 0;
      const stored = args.eventRef ? await webhookEvents.get(args.scope, args.eventRef.id) : null;
      const event =
        args.event ?? (stored ? parseStoredEvent(stored) : args.eventRef ? { id: args.eventRef.id, type: args.eventRef.type } : null);
      const outEvent = outboundEventOf(args.state, event, args.downgradeId);
      const targets = (await endpoints.list(slug)).filter(
        (ep) => !ep.disabled && (ep.eventTypes === null || ep.eventTypes.includes(outEvent.type)),
      );
      for (const ep of targets) {
        const deliveryId = messageIdFor(ep._id, outEvent.id);
        const at = now();
        const stored = await deliveries.ensure(
          pendingDelivery(
            { _id: deliveryId, app: slug, endpointId: ep._id, eventId: outEvent.id, eventType: outEvent.type, body: bodyOf(outEvent, at) },
            at,
          ),
        );
        await startDelivery(
          deps.temporal,
          deps.config,
          { app: slug, endpointId: ep._id, deliveryId: stored._id, eventType: stored.eventType },
          'first',
        );
      }
      return targets.length;
    },

    /** One attempt: check the URL again (DNS may have changed), sign, POST, record what happened. */
    async attemptOutboundDelivery(args: {
      app: string;
      endpointId: string;
      deliveryId: string;
      attempt: number;
      nextRetryInMs: number | null;
    }): Promise<AttemptOutcome> {
      const ep = await endpoints.get(args.app, args.endpointId);
      const delivery = await deliveries.get(args.endpointId, args.deliveryId);
      if (!ep || ep.disabled || !delivery) return { kind: 'endpoint_off' };
      const at = now();
      const nextRetryAt = args.nextRetryInMs === null ? null : new Date(at.getTime() + args.nextRetryInMs);
      let status: number | null = null;
      let latencyMs: number | null = null;
      let error: string | null = null;
      let responseBody: string | null = null;
      let responseBodyTruncated = false;
      try {
        const url = checkUrl(ep.url, cfg.allowLoopback);
        const target = await resolveSafely(url, cfg.allowLoopback);
        const timestamp = Math.floor(at.getTime() / 1000);
        const res = await postWebhook({
          url,
          ...target,
          body: delivery.body,
          timeoutMs: cfg.timeoutMs,
          keepBodyBytes: MAX_RESPONSE_BODY_KEPT,
          headers: {
            'webhook-id': delivery._id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signatureHeader(signingSecrets(ep, at), delivery._id, timestamp, delivery.body),
          },
        });
        status = res.status;
        latencyMs = res.latencyMs;
        responseBody = res.body;
        responseBodyTruncated = res.bodyTruncated;
      } catch (err) {
        error =
          err instanceof UnsafeUrlError
            ? `refused: ${err.message}`
            : err instanceof Error
              ? err.message.slice(0, 500)
              : String(err).slice(0, 500);
      }
      const ok = status !== null && status >= 200 && status < 300;
      const gone = status === 410;
      await deliveries.recordAttempt(
        delivery._id,
        {
          attempt: args.attempt,
          at,
          statusCode: status,
          latencyMs,
          error,
          nextRetryAt: ok || gone ? null : nextRetryAt,
          responseBody,
          responseBodyTruncated,
        },
        ok ? 'succeeded' : gone || nextRetryAt === null ? 'failed' : 'pending',
        now(),
      );
      deps.metrics?.outboundAttempt(ok ? 'sent' : gone || nextRetryAt === null ? 'failed' : 'retried', latencyMs);
      if (ok) {
        await endpoints.markSuccess(ep._id);
        await counters.inc('sent');
        return { kind: 'sent', status: status! };
      }
      await counters.inc(gone || nextRetryAt === null ? 'failed' : 'retried');
      if (gone) {
        if (await endpoints.disable(ep._id, 'gone', now())) await counters.inc('disabled');
        return { kind: 'gone' };
      }
      const failingSince = await endpoints.markFailure(ep._id, at);
      if (failingSince && at.getTime() - failingSince.getTime() >= cfg.disableAfterMs) {
        if (await endpoints.disable(ep._id, 'failing', now())) {
          await counters.inc('disabled');
          await mailDisabled(ep, failingSince);
        }
        return { kind: 'endpoint_off' };
      }
      return { kind: 'failed', status, error };
    },

    async finishOutboundDelivery(args: { deliveryId: string; status: 'succeeded' | 'failed' }): Promise<void> {
      await deliveries.setStatus(args.deliveryId, args.status, now());
    },
  };

  /** Tells the app's contact, once per failing streak (the outbox key), that the endpoint was disabled. */
  async function mailDisabled(ep: EndpointRecord, failingSince: Date): Promise<void> {
    const app = await apps.get(ep.app);
    const to = app?.outboundContactEmail;
    if (!to) {
      deps.logger.warn(
        { app: ep.app, endpointId: ep._id },
        'outbound endpoint disabled after failing; the app has no contact email to tell',
      );
      return;
    }
    const key = `outbound_disabled:${ep._id}:${failingSince.toISOString()}`;
    const mail = await outbox.record(
      key,
      {
        to,
        subject: `Webhook endpoint disabled for ${ep.app}`,
        text: [
          'Hello,',
          '',
          `Every delivery to the webhook endpoint ${ep._id} (${ep.url}) of app ${ep.app} has failed since ${failingSince.toISOString()}, so it was disabled.`,
          'Fix the receiver, enable the endpoint again (PATCH with "disabled": false) and redeliver what failed (POST .../redeliver-failed).',
        ].join('\n'),
        messageId: `<${encodeURIComponent(key)}@skills-billing.local>`,
      },
      now(),
    );
    await sendOnce({ outbox, mailer: deps.mailer, logger: deps.logger, now, metrics: deps.metrics }, mail);
  }
}
