import type { TimelineRecord } from '../../store/billing-timeline';

/** A customer's timeline entry as the API answers it (the timeline route, the event log's detail). */
export function timelineEntryBody(e: TimelineRecord) {
  return {
    eventId: e.eventId,
    type: e.type,
    providerAt: e.providerAt,
    receivedAt: e.receivedAt,
    appliedAt: e.appliedAt,
    version: e.version,
    before: e.before,
    after: e.after,
    ownChange: e.ownChange ?? false,
    facts: e.facts ?? null,
  };
}
