/** The `GET /v1/billing/customers/{appUserId}` body (src/api/openapi/billing.ts) of a subscriber. Pure. */
import type { CanonicalView } from './canonical-view';
import { isoTime } from './iso-time';
import type { BillingScope } from './subscriber-id';
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

/** From the canonical view the store keeps; `aliases` lists the other ids the customer has used. */
export function customerResource(view: CanonicalView, workflowId: string): CustomerResource {
  return {
    scope: view.scope,
    id: view.id,
    aliases: view.aliases.filter((a) => a !== view.id),
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
    workflowId,
  };
}
