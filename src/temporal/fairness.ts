import type { Priority } from '@temporalio/common';

/** Temporal's limit on a fairness key, in bytes. */
const MAX_FAIRNESS_KEY_BYTES = 64;

/**
 * Task-queue fairness by tenant: every billing workflow of one scope (an app, or the operator) carries the scope
 * as its fairness key, every skill invocation its project (`project:<id>`), and the server dispatches a queue's
 * backlog round-robin across keys instead of first-in first-out. One tenant's burst then waits mostly on itself;
 * another tenant's work is dispatched in its turn.
 * Set when the workflow starts; its tasks, activities and timers inherit it. Needs a server with fairness on
 * (`matching.enableFairness`; the dev stack turns it on, docs/operations.md "Skills and billing apart"); a server without it
 * ignores the key and keeps FIFO order.
 */
export function tenantPriority(tenant: string): Priority {
  let key = tenant;
  while (Buffer.byteLength(key) > MAX_FAIRNESS_KEY_BYTES) key = key.slice(0, -1);
  return { fairnessKey: key };
}
