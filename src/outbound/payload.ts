import type { BillingEvent } from '../billing/provider-events';
import type { SubscriberState } from '../billing/subscriber-state';

/** The type sent when a scheduled downgrade takes effect (no provider event carries it). */
export const SUBSCRIPTION_DOWNGRADED = 'SUBSCRIPTION_DOWNGRADED';
/** The type of "send test event". */
export const WEBHOOK_TEST = 'WEBHOOK_TEST';

/** What one event tells receivers: the subscriber, its state after the event, and the provider's event. */
export interface OutboundEvent {
  type: string;
  /** Provider event id, or a derived one for downgrades and tests. */
  id: string;
  data: {
    subscriber: { id: string; aliases: string[] };
    state: Pick<SubscriberState, 'status' | 'entitlements' | 'scheduledDowngrade'>;
    event: BillingEvent | null;
  };
}

/** What an outbound event says of the subscriber: its outward facts, not its bookkeeping. */
export type OutboundSubscriber = Pick<SubscriberState, 'id' | 'aliases' | 'status' | 'entitlements' | 'scheduledDowngrade' | 'version'>;

export function outboundEventOf(state: OutboundSubscriber, event: BillingEvent | null, downgradeId: string | null): OutboundEvent {
  return {
    type: event ? event.type : SUBSCRIPTION_DOWNGRADED,
    id: event ? event.id : (downgradeId ?? `downgrade:${state.id}:${state.version}`),
    data: {
      subscriber: { id: state.id, aliases: state.aliases },
      state: { status: state.status, entitlements: state.entitlements, scheduledDowngrade: state.scheduledDowngrade },
      event,
    },
  };
}

/** The JSON body: `timestamp` is when the delivery was created; it stays the same on every retry. */
export function bodyOf(e: OutboundEvent, createdAt: Date): string {
  return JSON.stringify({ type: e.type, id: e.id, timestamp: createdAt.toISOString(), data: e.data });
}
