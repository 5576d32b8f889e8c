import type { RelayCheckpoint, RelayCheckpointRepository } from '../../../src/store/relay-checkpoints';
import type { WebhookEventRecord, WebhookEventRepository } from '../../../src/store/webhook-events';

type Checkpoints = Pick<RelayCheckpointRepository, 'save' | 'stale' | 'removeIfUnchanged' | 'remove'>;

/**
 * The relay ledger's two collections in memory, for its unit tests: the inbox (what `acceptedSince` and
 * `reacceptedSince` read, and the re-acceptance a redelivery writes: `redelivered`) and the checkpoints, with the store's own clock (`storeMs`), which stamps and judges heartbeats, as
 * src/store/relay-checkpoints.ts documents. The real collections are exercised by the integration tests
 * (billing-effects: recovery of a dead instance's events; billing-bad-input: peers judged by the store's clock).
 */
export class MemoryRelayStore {
  storeMs = 0;
  readonly inbox: WebhookEventRecord[] = [];
  readonly saved = new Map<string, RelayCheckpoint>();

  readonly checkpoints: Checkpoints = {
    save: async (instanceId, safeUntil) => {
      this.saved.set(instanceId, { _id: instanceId, safeUntil, heartbeatAt: new Date(this.storeMs) });
    },
    stale: async (staleMs) =>
      [...this.saved.values()].filter((c) => c.heartbeatAt.getTime() < this.storeMs - staleMs).map((c) => ({ ...c })),
    removeIfUnchanged: async (checkpoint) => {
      const now = this.saved.get(checkpoint._id);
      if (!now || now.heartbeatAt.getTime() !== checkpoint.heartbeatAt.getTime()) return false;
      return this.saved.delete(checkpoint._id);
    },
    remove: async (instanceId) => {
      this.saved.delete(instanceId);
    },
  };

  readonly events: Pick<WebhookEventRepository, 'acceptedSince' | 'reacceptedSince' | 'getMany'> = {
    acceptedSince: async (instanceId, since, limit) =>
      this.inbox
        .filter((r) => r.acceptedBy === instanceId && !r.ignored && r.receivedAt >= since)
        .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())
        .slice(0, limit),
    reacceptedSince: async (instanceId, since, limit) =>
      this.inbox
        .filter((r) => r.reacceptedBy === instanceId && !r.ignored && r.reacceptedAt! >= since)
        .sort((a, b) => a.reacceptedAt!.getTime() - b.reacceptedAt!.getTime())
        .slice(0, limit),
    getMany: async (ids) => this.inbox.filter((r) => ids.includes(r._id)),
  };

  /**
   * A redelivery of a stored event acknowledged by `instanceId` at `at` (its clock): what WebhookEventRepository's
   * `accept` writes for a duplicate, in one update. Returns the record as it now stands.
   */
  redelivered(id: string, instanceId: string, at: Date): WebhookEventRecord {
    const record = this.inbox.find((r) => r._id === id)!;
    record.deliveries += 1;
    record.reacceptedBy = instanceId;
    record.reacceptedAt = at;
    return record;
  }
}
