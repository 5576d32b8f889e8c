import { ApplicationFailure } from '@temporalio/activity';
import { signalSubscriberWorkflow } from '../temporal/clients/billing-subscriber';
import { isPermanentRefusal } from '../temporal/failures';
import { contributionOf, type BillingTotals } from '../billing/metrics';
import { reducerEvent, type BillingEvent } from '../billing/provider-events';
import type { BillingScope } from '../billing/subscriber-id';
import { parseStoredEvent } from '../store/webhook-events';
import type { SubscriberState } from '../billing/subscriber-state';
import type { Entitlement as BillingEntitlement } from '../billing/subscriber-view';
import { ensureMetricsWorkflow } from '../temporal/clients/billing-metrics';
import { type SubscriberMessage } from '../contracts/workflows/billing-subscriber';
import type { DepsOf } from './deps';

/** I/O of the billing workflows: the dashboard projection, operator entitlements, signals between workflows. */
export function createBillingActivities(
  deps: DepsOf<
    'subscribers' | 'owedTotals' | 'billingTotals' | 'projects' | 'billingTimeline' | 'billingDaily' | 'webhookEvents',
    'config' | 'logger' | 'temporal'
  >,
) {
  const {
    subscribers,
    owedTotals,
    billingTotals: totals,
    projects,
    billingTimeline: timeline,
    billingDaily: daily,
    webhookEvents,
  } = deps.repos;
  const { now } = deps;
  const taskQueue = deps.config.temporal.taskQueue;

  return {
    /**
     * Besides the record, the console's history is kept here, store-side, so the workflow needs no change: the
     * customer's timeline (each newly applied event with the before/after) and the day's churn count, both
     * derived from the record stored before this write. The timeline goes first, keyed by event, so a retry
     * after a failed save appends nothing twice; churn goes after the save, and a retry that finds the record
     * already at this version (or newer: a late write) counts nothing again.
     */
    async persistSubscriber(args: { state: SubscriberState; workflowId: string; runId?: string }): Promise<void> {
      const at = now();
      const previous = await subscribers.stored(args.state.scope, args.state.id);
      if (previous && previous.state.version >= args.state.version) {
        await subscribers.save(args.state, args.workflowId, at, args.runId);
        return;
      }
      await timeline.append(previous?.state ?? null, args.state, at);
      await subscribers.save(args.state, args.workflowId, at, args.runId);
      // A subscription that stopped counting, on a record still its own (a merge moves it, it does not churn it).
      const lost = (previous?.contribution.activeSubscriptions ?? 0) - contributionOf(args.state).activeSubscriptions;
      if (args.state.mergedInto === null && lost > 0) await daily.addChurn(args.state.scope, lost, at);
    },

    /**
     * The state a fresh run of a subscriber's workflow starts from: the last one stored, when an earlier run
     * ended without continuing as new (terminated, reset, failed). `counted` is what the scope totals already
     * include for it, so the next delta neither repeats nor loses it.
     *
     * A record the asking run wrote itself is not an earlier run's: its first workflow task is being retried (a
     * worker died after this task's local activities stored the record, before the task completed, so this
     * read's result was never recorded). The run starts from scratch then, as it did the first time, and its
     * totals delta, which the record counts but the lost task never sent, is sent.
     */
    async loadStoredSubscriber(args: {
      scope: BillingScope;
      subscriberId: string;
      runId?: string;
    }): Promise<{ state: SubscriberState; counted: BillingTotals } | null> {
      const stored = await subscribers.stored(args.scope, args.subscriberId);
      if (!stored || (args.runId !== undefined && stored.runId === args.runId)) return null;
      // While the totals refuse its delta, they hold less (or more) of it than the record contributes.
      const owed = await owedTotals.counted(args.scope, args.subscriberId);
      return { state: stored.state, counted: owed ?? stored.contribution };
    },

    /**
     * What the scope totals hold of a subscriber while they refuse its delta (null once they took it), kept apart
     * (owed-totals.ts): a run started from the record (after a termination or reset) then owes the difference, not
     * nothing, and operators see the subscribers that owe.
     */
    async noteOwedTotals(args: { scope: BillingScope; subscriberId: string; counted: BillingTotals | null }): Promise<void> {
      if (args.counted) await owedTotals.note(args.scope, args.subscriberId, args.counted, now());
      else await owedTotals.clear(args.scope, args.subscriberId);
    },

    /**
     * Operator scope: the provider's `app_user_id` names an org or a project of this service, and the entitlements
     * land there. `targets` are every app user id the customer was seen under (subscriber-state.ts's
     * entitlementTargets; absent on activities scheduled before it: the subscriber id alone); those that name
     * no org or project are passed over. `revoked`: ids a transfer moved the purchases away from.
     */
    async applyOperatorEntitlements(args: {
      subscriberId: string;
      targets?: string[];
      revoked?: string[];
      entitlements: BillingEntitlement[];
      version: number;
    }): Promise<void> {
      const entitlements = args.entitlements.map((e) => ({
        id: e.id,
        productId: e.productId,
        expiresAt: e.expiresAtMs === null ? null : new Date(e.expiresAtMs).toISOString(),
      }));
      let entitled = 0;
      for (const id of args.targets ?? [args.subscriberId]) {
        if (await projects.setEntitlements(id, entitlements, args.version, now())) entitled += 1;
      }
      // A transfer moved the purchases away from these: their orgs lose what this subscriber paid for.
      for (const id of args.revoked ?? []) await projects.setEntitlements(id, [], args.version, now());
      if (entitled === 0)
        deps.logger.warn(
          { subscriberId: args.subscriberId, targets: args.targets },
          'operator billing event names no org or project; nothing entitled',
        );
    },

    /** The acted-on members of an event in the inbox (for events too large to travel in a signal); null: not there. */
    async loadProviderEvent(args: { scope: BillingScope; eventId: string }): Promise<BillingEvent | null> {
      const record = await webhookEvents.get(args.scope, args.eventId);
      return record ? reducerEvent(parseStoredEvent(record)) : null;
    },

    /**
     * Delivers a message to another subscriber's workflow, starting it if needed. Redelivery is harmless there.
     * A request Temporal refuses for good fails at once, so the workflow parks it instead of retrying for a day.
     */
    async signalSubscriber(args: { scope: BillingScope; subscriberId: string; message: SubscriberMessage }): Promise<void> {
      try {
        await signalSubscriberWorkflow(deps.temporal, taskQueue, args, args.message, now);
      } catch (err) {
        if (isPermanentRefusal(err))
          throw ApplicationFailure.nonRetryable(
            `Temporal refused the signal to ${args.subscriberId}: ${(err as Error).message}`,
            'TemporalRefused',
          );
        throw err;
      }
    },

    async ensureBillingMetricsWorkflow(scope: BillingScope): Promise<void> {
      await ensureMetricsWorkflow(deps.temporal, taskQueue, scope);
    },

    /** What a fresh run of a scope's metrics workflow starts from, when an earlier run ended abnormally. */
    async loadBillingTotals(scope: BillingScope): Promise<{ totals: BillingTotals; seq: number } | null> {
      const stored = await totals.stored(scope);
      return stored && { totals: stored.totals, seq: stored.seq };
    },

    async writeBillingTotals(args: { scope: BillingScope; seq: number; totals: BillingTotals }): Promise<void> {
      await totals.write(args.scope, args.seq, args.totals, now());
    },
  };
}
