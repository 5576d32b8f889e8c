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

  async save(instanceId: string, safeUntil: Date, now: Date): Promise<void> {
    await this.coll.replaceOne({ _id: instanceId }, { safeUntil, heartbeatAt: now }, { upsert: true });
  }

  stale(heartbeatBefore: Date): Promise<RelayCheckpoint[]> {
    return this.coll.find({ heartbeatAt: { $lt: heartbeatBefore } }).toArray();
  }

  async remove(instanceId: string): Promise<void> {
    await this.coll.deleteOne({ _id: instanceId });
  }
}
