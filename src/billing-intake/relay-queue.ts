import { EVENT_BATCH_CHARS, EVENT_BATCH_MAX } from '../contracts/workflows/billing-subscriber';
import type { WebhookEventRecord } from '../store/webhook-events';
import { TenantRoundRobin } from './tenant-round-robin';

/**
 * Signal-with-start calls in flight at once; the rest wait in memory (and in the inbox, should we die). Eight keep
 * a local server busy; more only split a backlog into more, smaller calls (bench/README.md, intake).
 */
export const RELAY_CALLS_IN_FLIGHT = 8;
/**
 * Calls one billing scope may have in flight: the rest stay free for other scopes, so another app's event leaves at
 * once during one app's burst instead of waiting for one of the burst's calls to come back.
 */
export const RELAY_CALLS_PER_SCOPE = 6;

export interface RelayQueueOptions {
  /**
   * One call: relays one subscriber's batch (in the order received) and settles what became of each event. Never
   * rejects; the queue frees the call's slot once it resolves.
   */
  send(batch: WebhookEventRecord[]): Promise<void>;
  /** Events held in memory at most: past it `offer` refuses, and the caller reads them back from the inbox later. */
  maxQueued: number;
}

/**
 * The relay's events in memory, waiting or in a call, and the calls: at most RELAY_CALLS_IN_FLIGHT at once and
 * RELAY_CALLS_PER_SCOPE per billing scope; scopes are served in turn (`TenantRoundRobin`), and within a scope
 * subscribers in the order their oldest waiting event came. A subscriber with a call in flight waits for it, so its
 * next events leave together, in order, in one call (at most one signal's worth: EVENT_BATCH_MAX, EVENT_BATCH_CHARS).
 */
export class RelayQueue {
  private readonly waiting = new TenantRoundRobin<WebhookEventRecord>();
  /** Subscribers (queue keys) with a call in flight. */
  private readonly busy = new Set<string>();
  /** Record ids in `waiting`, and how many. */
  private readonly queuedIds = new Set<string>();
  private readonly inFlight = new Set<string>();
  /** Calls under way (each carries one event, or a batch for one subscriber), and by scope. */
  private calls = 0;
  private readonly scopeCalls = new Map<string, number>();
  private readonly idleWaiters = new Set<() => void>();

  constructor(private readonly options: RelayQueueOptions) {}

  /** The event is waiting or in a call. */
  holds(id: string): boolean {
    return this.queuedIds.has(id) || this.inFlight.has(id);
  }

  /**
   * Queues the event (one it holds already is taken as queued) and starts what calls it may; false, holding
   * nothing, when memory is full.
   */
  offer(record: WebhookEventRecord): boolean {
    if (this.holds(record._id)) return true;
    if (this.queuedIds.size >= this.options.maxQueued) return false;
    this.waiting.push(record.scope, queueKey(record), record);
    this.queuedIds.add(record._id);
    this.pump();
    return true;
  }

  /** Waiting (not in a call). */
  get queued(): number {
    return this.queuedIds.size;
  }

  /** In a call. */
  get inCalls(): number {
    return this.inFlight.size;
  }

  /** Room for half a queue's worth of events read back from the inbox. */
  get halfEmpty(): boolean {
    return this.queuedIds.size <= this.options.maxQueued / 2;
  }

  /** Resolves once nothing waits or is in a call. */
  idle(): Promise<void> {
    if (this.inFlight.size === 0 && this.queuedIds.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.idleWaiters.delete(wake);
        resolve();
      };
      this.idleWaiters.add(wake);
    });
  }

  private pump(): void {
    while (this.calls < RELAY_CALLS_IN_FLIGHT) {
      const next = this.waiting.take(
        (key) => this.busy.has(key),
        takeBatch,
        (scope) => (this.scopeCalls.get(scope) ?? 0) >= RELAY_CALLS_PER_SCOPE,
      );
      if (!next) return;
      this.call(next.key, next.tenant, next.items);
    }
  }

  private call(key: string, scope: string, batch: WebhookEventRecord[]): void {
    this.busy.add(key);
    this.scopeCalls.set(scope, (this.scopeCalls.get(scope) ?? 0) + 1);
    for (const r of batch) {
      this.queuedIds.delete(r._id);
      this.inFlight.add(r._id);
    }
    this.calls += 1;
    void this.options.send(batch).finally(() => {
      this.calls -= 1;
      const left = (this.scopeCalls.get(scope) ?? 1) - 1;
      if (left > 0) this.scopeCalls.set(scope, left);
      else this.scopeCalls.delete(scope);
      this.busy.delete(key);
      for (const r of batch) this.inFlight.delete(r._id);
      if (this.inFlight.size === 0 && this.queuedIds.size === 0) for (const wake of this.idleWaiters) wake();
      this.pump();
    });
  }
}

/** Events of one subscriber share a key (and a call); one that names no subscriber travels alone. */
function queueKey(record: WebhookEventRecord): string {
  return record.workflowId && record.subscriberId ? record.workflowId : `record:${record._id}`;
}

/** Takes from the front of a subscriber's waiting events as many as one signal may carry (at least one). */
function takeBatch(list: WebhookEventRecord[]): WebhookEventRecord[] {
  let count = 1;
  let chars = list[0]!.eventJson.length;
  while (count < list.length && count < EVENT_BATCH_MAX && chars + list[count]!.eventJson.length <= EVENT_BATCH_CHARS) {
    chars += list[count]!.eventJson.length;
    count += 1;
  }
  return list.splice(0, count);
}
