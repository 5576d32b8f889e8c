import { proxyActivities } from '@temporalio/workflow';
import { deadLetterKey } from '../billing/dead-letter-key';
import type { Effect } from '../billing/effects';
import type { BillingScope } from '../billing/subscriber-id';
import { entitlementTargets, type SubscriberState } from '../billing/subscriber-state';
import type { createActivities } from '../activities';
import type { SubscriberMessage } from '../contracts/workflows/billing-subscriber';
import type { Park } from './billing-subscriber-parking';

type Activities = ReturnType<typeof createActivities>;

// Effects on other records are retried for a day (Temporal refusing a signal for good fails at once), then
// parked as dead letters that an operator can retry.
const { applyOperatorEntitlements, signalSubscriber } = proxyActivities<Activities>({
  startToCloseTimeout: '15s',
  scheduleToCloseTimeout: '24h',
  retry: { initialInterval: '200ms', maximumInterval: '30s' },
});
// Mail goes through an SMTP relay that may be slow; the outbox makes retries send at most one mail per event.
// Three days of failures (a relay that refuses us) park the mail as a dead letter. The activity heartbeats, so an
// attempt lost with its worker is retried within 10 s: the subscriber's next events wait for it.
const { sendBillingIssueEmail } = proxyActivities<Activities>({
  startToCloseTimeout: '1m',
  heartbeatTimeout: '10s',
  scheduleToCloseTimeout: '3d',
  retry: { initialInterval: '2s', maximumInterval: '5m' },
});

/** What the effect runner reads of the workflow it runs in: whose record, and its state as it is now. */
export interface SubscriberRecord {
  scope: BillingScope;
  subscriberId: string;
  state: () => SubscriberState;
  /** Whether a merge tells the ids it asks that the canonical record lists them (the run's patch era, v5 on). */
  tellsListed: () => boolean;
}

/**
 * The subscriber workflow's effect runner: carries out a transition's effects one after another, through
 * activities. An effect that fails for good is parked (`redoKey`: the dead letter a retried effect came from, else
 * one keyed by the record's version and the effect's place) and the others still run.
 */
export function subscriberEffects(record: SubscriberRecord, park: Park) {
  const { scope, subscriberId } = record;

  async function runEffects(effects: readonly Effect[], message: SubscriberMessage | null, redoKey: string | null): Promise<void> {
    for (const [index, effect] of effects.entries()) {
      try {
        await runEffect(effect, message);
      } catch (err) {
        const key = redoKey ?? deadLetterKey({ stage: 'effect', scope, subscriberId, version: record.state().version, index });
        await park('effect', key, { effect, message }, message?.kind === 'event' ? message.event : null, err);
      }
    }
  }

  async function runEffect(effect: Effect, message: SubscriberMessage | null): Promise<void> {
    const state = record.state();
    switch (effect.kind) {
      case 'entitlements_changed':
        // Written where the org or project is named: every app_user_id this customer was seen under.
        if (scope === 'operator' && state.mergedInto === null) {
          await applyOperatorEntitlements({
            subscriberId,
            ...entitlementTargets(state),
            entitlements: effect.entitlements,
            version: state.version,
          });
        }
        break;
      case 'email_billing_issue':
        await sendBillingIssueEmail({
          eventId: effect.eventId,
          subscriberId: effect.subscriberId,
          orgIds: effect.orgIds ?? [effect.subscriberId],
        });
        break;
      case 'merge': {
        // All at once: one workflow task schedules them, instead of a task (and its history events) each.
        const canonicalId = effect.into ?? subscriberId;
        const listed = record.tellsListed() && effect.listed === true ? { listed: true as const } : {};
        await Promise.all(
          effect.from.map((from) =>
            signalSubscriber({ scope, subscriberId: from, message: { kind: 'mergeInto', canonicalId, ...listed } }),
          ),
        );
        break;
      }
      case 'transfer_out':
        await signalSubscriber({ scope, subscriberId: effect.to, message: { kind: 'absorb', state } });
        break;
      case 'forward':
        // This record was merged: what it is given belongs to the canonical record.
        if (message && message.kind !== 'mergeInto' && message.kind !== 'redo')
          await signalSubscriber({ scope, subscriberId: effect.to, message });
        break;
    }
  }

  return { runEffects };
}
