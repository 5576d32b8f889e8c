import type { createBillingActivities } from './billing';
import type { createOutboundActivities } from './outbound';

type Billing = ReturnType<typeof createBillingActivities>;
type Outbound = ReturnType<typeof createOutboundActivities>;

/**
 * What a subscriber workflow does after applying a batch, in one local activity: store the record (with its
 * timeline and churn), then fan the applied events out to the app's outbound endpoints. One local activity
 * instead of two remote ones keeps an event to one workflow task for the work itself (the record write is
 * version-guarded and the dispatch idempotent, so a retry of either half is harmless).
 */
export function createPublishActivities(billing: Pick<Billing, 'persistSubscriber'>, outbound: Pick<Outbound, 'dispatchOutboundEvent'>) {
  return {
    async publishSubscriber(
      args: Parameters<Billing['persistSubscriber']>[0] & { outbound: Parameters<Outbound['dispatchOutboundEvent']>[0][] },
    ): Promise<void> {
      await billing.persistSubscriber({ state: args.state, workflowId: args.workflowId, runId: args.runId });
      for (const notice of args.outbound) await outbound.dispatchOutboundEvent(notice);
    },
  };
}
