/**
 * What the service shows for a customer, in the reference model's terms (model.ts's ExpectedCustomer), read from a
 * subscriber record or from the customer API's body; and the differences between the two, named member by member.
 */
import type { SubscriberState } from '../../../src/billing/subscriber-state';
import type { ExpectedCustomer } from './model';

export function observedFromState(state: SubscriberState): ExpectedCustomer {
  return {
    id: state.id,
    aliases: state.aliases.filter((a) => a !== state.id),
    status: state.status,
    entitlements: state.entitlements.map((e) => ({ id: e.id, productId: e.productId, expiresAtMs: e.expiresAtMs })),
    flagsSinceMs: state.flags.map((f) => f.sinceMs),
    downgrade: state.scheduledDowngrade && { atMs: state.scheduledDowngrade.atMs, reason: state.scheduledDowngrade.reason },
    mrrMicros: state.mrrContributionMicros,
  };
}

/** The `GET /v1/billing/customers/{id}` body; MRR there is in dollars rounded to the cent. */
export interface CustomerBody {
  id: string;
  aliases: string[];
  status: ExpectedCustomer['status'];
  entitlements: { id: string; productId: string | null; expiresAt: string | null }[];
  flags: { since: string }[];
  scheduledDowngrade: { at: string; reason: string } | null;
  mrrContribution: number;
}

export function observedFromApi(body: CustomerBody): Omit<ExpectedCustomer, 'mrrMicros'> & { mrrCents: number } {
  return {
    id: body.id,
    aliases: [...body.aliases].sort(),
    status: body.status,
    entitlements: body.entitlements.map((e) => ({
      id: e.id,
      productId: e.productId,
      expiresAtMs: e.expiresAt === null ? null : Date.parse(e.expiresAt),
    })),
    flagsSinceMs: body.flags.map((f) => Date.parse(f.since)),
    downgrade: body.scheduledDowngrade && { atMs: Date.parse(body.scheduledDowngrade.at), reason: body.scheduledDowngrade.reason },
    mrrCents: Math.round(body.mrrContribution * 100),
  };
}

export function centsOf(micros: number): number {
  return Math.round(micros / 10_000);
}

/** Member-by-member differences, as readable lines (empty: equal). */
export function differences(expected: object, observed: object, path = ''): string[] {
  const out: string[] = [];
  const keys = new Set([...Object.keys(expected), ...Object.keys(observed)]);
  for (const key of keys) {
    const e = (expected as Record<string, unknown>)[key];
    const o = (observed as Record<string, unknown>)[key];
    if (JSON.stringify(e) !== JSON.stringify(o)) out.push(`${path}${key}: expected ${JSON.stringify(e)}, got ${JSON.stringify(o)}`);
  }
  return out;
}
