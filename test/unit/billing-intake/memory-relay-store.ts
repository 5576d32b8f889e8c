import type { RelayCheckpoint, RelayCheckpointRepository } from '../../../src/store/relay-checkpoints';
import type { WebhookEventRecord, WebhookEventRepository } from '../../../src/store/webhook-events';

type Checkpoints = Pick<RelayCheckpointRepository, 'save' | 'stale' | 'removeIfUnchanged' | 'remove'>;

/**
 * The relay ledger's two collections in memory, for its unit tests: the inbox (only what `acceptedSince` reads) and
 * the checkpoints, with the store's own clock (`storeMs`), which stamps and judges heartbeats, as
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

  readonly events: Pick<WebhookEventRepository, 'acceptedSince'> = {
    acceptedSince: async (instanceId, since, limit) =>
      this.inbox
        .filter((r) => r.acceptedBy === instanceId && !r.ignored && r.receivedAt >= since)
        .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())
        .slice(0, limit),
  };
}
