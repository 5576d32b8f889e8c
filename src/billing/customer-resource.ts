/** The `GET /v1/billing/customers/{appUserId}` body (src/api/openapi/billing.ts) of a subscriber. Pure. */
import { isoTime } from './iso-time';
import { workflowIdFor, type BillingScope } from './subscriber-id';
import type { SubscriberState } from './subscriber-state';
import { canonicalView } from './canonical-view';
import type { SubscriberStatus } from './subscriber-view';

export interface CustomerResource {
  scope: BillingScope;
  id: string;
  aliases: string[];
  mergedInto: string | null;
  status: SubscriberStatus;
  entitlements: { id: string; productId: string | null; expiresAt: string | null }[];
  flags: { type: 'billing_issue'; since: string; eventId: string }[];
  scheduledDowngrade: { at: string; reason: string } | null;
  /** USD per month, rounded to the cent. */
  mrrContribution: number;
  lastEvent: { id: string; type: string; at: string } | null;
  workflowId: string;
}

export function customerResource(state: SubscriberState): CustomerResource {
  const view = canonicalView(state);
  return {
    scope: view.scope,
    id: view.id,
    aliases: view.aliases,
    mergedInto: view.mergedInto,
    status: view.status,
    entitlements: view.entitlements.map((e) => ({
      id: e.id,
      productId: e.productId,
      expiresAt: e.expiresAtMs === null ? null : isoTime(e.expiresAtMs),
    })),
    flags: view.flags.map((f) => ({ type: f.type, since: isoTime(f.sinceMs), eventId: f.eventId })),
    scheduledDowngrade: view.scheduledDowngrade && {
      at: isoTime(view.scheduledDowngrade.atMs),
      reason: view.scheduledDowngrade.reason,
    },
    mrrContribution: view.mrrContribution,
    lastEvent: view.lastEvent && { id: view.lastEvent.id, type: view.lastEvent.type, at: isoTime(view.lastEvent.atMs) },
    workflowId: workflowIdFor(view.scope, view.id),
  };
}
