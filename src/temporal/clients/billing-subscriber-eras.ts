/**
 * How many open billing-subscriber runs are in each patch era (see SUBSCRIBER_PATCHES): what tells operators and
 * developers when no running history needs an old era's branches any more (ARCHITECTURE.md, "Patch eras and their
 * sunset"). Read from Temporal's visibility store through the TemporalChangeVersion search attribute, which the SDK
 * sets to the patch ids a run has taken.
 */
import type { Client } from '@temporalio/client';
import {
  billingSubscriberContract as contract,
  SUBSCRIBER_ERAS,
  SUBSCRIBER_PATCHES,
  type SubscriberEra,
} from '../../contracts/workflows/billing-subscriber';

export type EraCounts = Record<SubscriberEra, number>;
export { SUBSCRIBER_ERAS, type SubscriberEra };

/** What marks each era in TemporalChangeVersion, for people. */
export const ERA_MARKS: Record<SubscriberEra, string> = {
  v1: `no work-v* id: before ${SUBSCRIBER_PATCHES.v2} (unpatched, ${SUBSCRIBER_PATCHES.resumeFromStoredState}, ${SUBSCRIBER_PATCHES.outboundWebhooks})`,
  v2: SUBSCRIBER_PATCHES.v2,
  v3: SUBSCRIBER_PATCHES.v3,
  v4: SUBSCRIBER_PATCHES.v4,
  v5: SUBSCRIBER_PATCHES.v5,
};

/**
 * Open (running) subscriber runs per era on one task queue. A run's era is the oldest `work-v*` id in its
 * TemporalChangeVersion (a work-v2 or work-v3 run adds work-v4 when it moves to rules v3); a run with none of them
 * is in era v1. Visibility is eventually consistent: a run started a moment ago counts once its first workflow
 * task has recorded its patch (until then it would count as v1), and the counts are separate queries, not one
 * snapshot.
 */
export async function countOpenSubscriberRunsByEra(client: Client, taskQueue: string): Promise<EraCounts> {
  const open = `WorkflowType = ${quoted(contract.name)} AND ExecutionStatus = 'Running' AND TaskQueue = ${quoted(taskQueue)}`;
  const changed = (patches: string[]) => `${open} AND TemporalChangeVersion IN (${patches.map(quoted).join(', ')})`;
  const count = async (query: string) => (await client.workflow.count(query)).count;
  const [all, patched, v2, v3, v5] = await Promise.all([
    count(open),
    count(changed([SUBSCRIBER_PATCHES.v2, SUBSCRIBER_PATCHES.v3, SUBSCRIBER_PATCHES.v4, SUBSCRIBER_PATCHES.v5])),
    count(changed([SUBSCRIBER_PATCHES.v2])),
    count(changed([SUBSCRIBER_PATCHES.v3])),
    // A v5 run asks for work-v5 alone (the newer patch short-circuits the older ones).
    count(changed([SUBSCRIBER_PATCHES.v5])),
  ]);
  return { v1: Math.max(0, all - patched), v2, v3, v4: Math.max(0, patched - v2 - v3 - v5), v5 };
}

/**
 * The sunset rule: an era's branches may go once no open run is in it or in any older era. The newest era is
 * what every new run takes: never.
 */
export function erasThatMayGo(counts: EraCounts): SubscriberEra[] {
  const mayGo: SubscriberEra[] = [];
  for (const era of SUBSCRIBER_ERAS.slice(0, -1)) {
    if (counts[era] !== 0) break;
    mayGo.push(era);
  }
  return mayGo;
}

/** A string literal of Temporal's list filter; a value it could not quote plainly is refused, never spliced in. */
function quoted(value: string): string {
  if (!/^[\w.:@/-]{1,200}$/.test(value)) throw new Error(`cannot filter on ${JSON.stringify(value)}: unexpected characters`);
  return `'${value}'`;
}
