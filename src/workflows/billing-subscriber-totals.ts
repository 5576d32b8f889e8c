import { getExternalWorkflowHandle, log, patched, proxyActivities, sleep } from '@temporalio/workflow';
import { diffContribution, type BillingTotals } from '../billing/metrics';
import type { BillingScope } from '../billing/subscriber-id';
import type { createActivities } from '../activities';
import { metricsWorkflowId, totalsDeltaSignal } from '../contracts/workflows/billing-metrics';
import { SUBSCRIBER_PATCHES } from '../contracts/workflows/billing-subscriber';
import { WakeTimer } from './wake-timer';

type Activities = ReturnType<typeof createActivities>;

/** The wait before the next try after `refusals` refusals in a row: 1 s, doubling up to a minute. */
const backoffMs = (refusals: number) => Math.min(60_000, 1_000 * 2 ** Math.min(refusals - 1, 16));

// Retried for as long as it takes, like the projection (billing-subscriber.ts): they start a workflow, or write
// one field of the subscriber's record.
const { ensureBillingMetricsWorkflow, noteOwedTotals } = proxyActivities<Activities>({
  startToCloseTimeout: '15s',
  retry: { initialInterval: '200ms', maximumInterval: '30s' },
});

export interface SubscriberTotals {
  /** What the scope totals hold of this subscriber: moves only when the metrics workflow took a delta. */
  readonly counted: BillingTotals;
  /** Refusals in a row of the delta owed (0: nothing owed), carried over a continue-as-new. */
  readonly refusals: number;
  /** A refused delta waits for its next try, and its timer went off. */
  readonly due: boolean;
  /** The totals lack some of `contribution`. */
  owes(contribution: BillingTotals): boolean;
  /**
   * A run's start, when it owes() what an earlier run could not send: the next try is timed as that run's would
   * have been (sent at once when the refusals are not known).
   */
  resume(contribution: BillingTotals): Promise<void>;
  /** Sends what the totals lack of `contribution`, unless a refused delta waits for its timer (it is sent then). */
  publish(contribution: BillingTotals): Promise<void>;
  /** The timer of a refused delta went off: sends what is owed now. */
  retry(contribution: BillingTotals): Promise<void>;
  /** The Temporal UI's details for the subscriber: its summary, and a delta that waits. */
  details(summary: string): string;
}

/**
 * A subscriber's contribution to its scope's totals, sent as deltas to the metrics workflow (billing-metrics.ts).
 *
 * The server refuses a signal when there is no metrics workflow yet (the scope's first subscriber), when it was
 * terminated, or when its current run has taken as many signals as the server allows one run
 * (`history.maximumSignalsPerExecution`, 10,000 by default: a burst can reach it while the run's workflow task waits
 * in a backlog). A refusal starts it if needed and tries once more; refused again, the delta is owed: `counted` stays
 * behind, the subscriber goes on applying events, and a durable timer (1 s doubling to a minute) tries again with
 * whatever is owed by then. A run that continues as new carries `counted` and the refusals as they are, and the
 * next run goes on trying on the same schedule, so a metrics workflow that refuses for days neither stops billing
 * nor grows one history past its limit (nor spends a new run's history on tries at once). While it owes, the
 * store says what the totals hold of it (store/owed-totals.ts: operators see it on /metrics), so a run started from
 * the subscriber's record after a termination or reset owes the same, not nothing. The delta is never dropped: the totals would stay off by it.
 *
 * Runs whose second refusal was recorded before `totals-owed` retried in place instead, blocking the events after
 * it; they keep that loop on replay.
 */
export function subscriberTotals(
  scope: BillingScope,
  subscriberId: string,
  carried: { counted: BillingTotals; refusals?: number },
): SubscriberTotals {
  let counted = carried.counted;
  let refusals = 0;
  let lastRefusal = '';
  // The record notes what the totals hold of this subscriber (noteOwedTotals), to be cleared once they took it.
  let noted = false;
  const timer = new WakeTimer('A refused totals delta is sent again');
  const handle = getExternalWorkflowHandle(metricsWorkflowId(scope));

  const signal = async (delta: BillingTotals): Promise<string | null> => {
    try {
      await handle.signal(totalsDeltaSignal, delta);
      return null;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  };
  const isZero = (delta: BillingTotals) => Object.values(delta).every((v) => v === 0);

  /** Runs recorded before `totals-owed`: the same tries, in place, until one is taken. */
  async function retryInPlace(delta: BillingTotals, firstRefusal: string): Promise<void> {
    let why = firstRefusal;
    for (let attempt = 2; ; attempt++) {
      const waitMs = backoffMs(attempt - 1);
      log.warn('totals delta refused; trying again', { scope, subscriberId, attempt, waitMs, error: why });
      await sleep(waitMs);
      await ensureBillingMetricsWorkflow(scope);
      const refused = await signal(delta);
      if (refused === null) return;
      why = refused;
    }
  }

  /** Sends `contribution - counted`: true once taken (or nothing to send), false when owed. */
  async function send(contribution: BillingTotals, ensureFirst: boolean): Promise<boolean> {
    const delta = diffContribution(counted, contribution);
    if (isZero(delta)) return true;
    // Starting it only on failure keeps an activity off every new subscriber's first event.
    let refused = ensureFirst ? 'refused before' : await signal(delta);
    if (refused !== null) {
      await ensureBillingMetricsWorkflow(scope);
      refused = await signal(delta);
    }
    if (refused === null) {
      counted = contribution;
      return true;
    }
    if (refusals === 0 && !patched(SUBSCRIBER_PATCHES.totalsOwed)) {
      await retryInPlace(delta, refused);
      counted = contribution;
      return true;
    }
    if (!noted) {
      await noteOwedTotals({ scope, subscriberId, counted });
      noted = true;
    }
    refusals++;
    lastRefusal = refused;
    const waitMs = backoffMs(refusals);
    log.warn('totals delta refused; owed and tried again later', { scope, subscriberId, refusals, waitMs, error: refused });
    timer.arm(Date.now() + waitMs);
    return false;
  }

  const settled = async () => {
    refusals = 0;
    lastRefusal = '';
    timer.arm(null);
    if (noted) await noteOwedTotals({ scope, subscriberId, counted: null });
    noted = false;
  };

  return {
    get counted() {
      return counted;
    },
    get refusals() {
      return refusals;
    },
    get due() {
      return timer.expired;
    },
    owes(contribution) {
      return !isZero(diffContribution(counted, contribution));
    },
    async resume(contribution) {
      // Owing at the start: an earlier run noted it on the record (it continued as new, or was ended abnormally).
      noted = true;
      if (!carried.refusals) {
        if (await send(contribution, false)) await settled();
        return;
      }
      refusals = carried.refusals;
      lastRefusal = 'refused in the run before';
      timer.arm(Date.now() + backoffMs(refusals));
    },
    async publish(contribution) {
      if (refusals > 0) return; // its timer sends it, with whatever else is owed by then
      await send(contribution, false);
    },
    async retry(contribution) {
      timer.take();
      if (await send(contribution, true)) {
        await settled();
        log.info('owed totals delta taken', { scope, subscriberId });
      }
    },
    details(summary) {
      if (refusals === 0) return summary;
      return `${summary} · a totals delta is owed: refused ${refusals} times (${lastRefusal}); the subscriber goes on applying events`;
    },
  };
}
