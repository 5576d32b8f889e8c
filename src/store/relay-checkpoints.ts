import type { Db } from 'mongodb';
import { COLLECTIONS } from './collections';

/**
 * One document per running API instance: every event that instance accepted before `safeUntil` has reached
 * its workflow. The instance refreshes it every few seconds; a checkpoint whose heartbeat stopped belongs to
 * an instance that died, and whoever notices re-forwards that instance's events from `safeUntil` on.
 */
export interface RelayCheckpoint {
  _id: string;
  safeUntil: Date;
  heartbeatAt: Date;
}

export class RelayCheckpointRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<RelayCheckpoint>(COLLECTIONS.relayCheckpoints);
  }

  /**
   * Heartbeats are stamped and judged by the store's clock, never the instances' own: two API hosts whose
   * clocks disagree must not take each other for dead.
   */
  async save(instanceId: string, safeUntil: Date): Promise<void> {
    await this.coll.updateOne({ _id: instanceId }, { $set: { safeUntil }, $currentDate: { heartbeatAt: true } }, { upsert: true });
  }

  /** Checkpoints whose heartbeat is older than `staleMs` by the store's clock. */
  async stale(staleMs: number): Promise<RelayCheckpoint[]> {
    const hello = await this.db.admin().command({ hello: 1 });
    const storeNow = hello.localTime instanceof Date ? hello.localTime : new Date();
    return this.coll.find({ heartbeatAt: { $lt: new Date(storeNow.getTime() - staleMs) } }).toArray();
  }

  /** Removes a dead instance's checkpoint, unless it came back to life (a newer heartbeat) since it was read. */
  async removeIfUnchanged(checkpoint: RelayCheckpoint): Promise<boolean> {
    return (await this.coll.deleteOne({ _id: checkpoint._id, heartbeatAt: checkpoint.heartbeatAt })).deletedCount > 0;
  }

  async remove(instanceId: string): Promise<void> {
    await this.coll.deleteOne({ _id: instanceId });
  }
}
