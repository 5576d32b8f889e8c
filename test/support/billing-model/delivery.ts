/**
 * The provider's delivery behaviour over a world's events: each event is sent some time after it was generated
 * (seconds, or up to two days for a retried or batched one), so deliveries within days of each other arrive
 * reordered; some are delivered twice (at-least-once), some retried after an error (the first attempt abandoned),
 * some sent as two concurrent copies. A retry keeps the event's id and body. Drawn from numbers, like histories.
 */
import type { BillingEvent } from '../../../src/billing/provider-events';
import { DAY, MINUTE } from './catalog';
import { Choices } from './history';

export interface Delivery {
  event: BillingEvent;
  /** When the provider sends it (the service's receipt time). */
  sentAtMs: number;
  /** 1 for the first copy, 2 and up for redeliveries. */
  copy: number;
  /** Sent at the same moment as the copy before it (two requests in flight at once). */
  concurrent: boolean;
  /** An attempt the provider abandons before the answer (a timeout): a retry of the same event follows. */
  abandoned: boolean;
}

/** Deliveries in the order sent. */
export function planDeliveries(events: BillingEvent[], draws: readonly number[]): Delivery[] {
  const d = new Choices(draws);
  const out: Delivery[] = [];
  for (const event of [...events].sort((a, b) => Number(a.event_timestamp_ms) - Number(b.event_timestamp_ms) || (a.id < b.id ? -1 : 1))) {
    const at = Number(event.event_timestamp_ms);
    const delay = d.chance(15) ? d.int(2 * 24 * 60) * MINUTE : d.int(30) * 1000;
    const what = d.int(100);
    const first = { event, sentAtMs: at + delay, copy: 1, concurrent: false, abandoned: false };
    if (what >= 97) {
      // Retried after an abandoned attempt: the retry comes minutes to hours later.
      out.push({ ...first, abandoned: true }, { ...first, sentAtMs: first.sentAtMs + (1 + d.int(240)) * MINUTE, copy: 2 });
    } else if (what >= 91) {
      out.push(first, { ...first, sentAtMs: first.sentAtMs + d.int(2 * 24 * 60) * MINUTE, copy: 2 });
    } else if (what >= 88) {
      out.push(first, { ...first, copy: 2, concurrent: true });
    } else out.push(first);
  }
  return out.sort((a, b) => a.sentAtMs - b.sentAtMs || (a.concurrent === b.concurrent ? 0 : a.concurrent ? 1 : -1));
}

export const MAX_DELIVERY_DELAY_MS = 2 * DAY + 4 * 60 * MINUTE;
