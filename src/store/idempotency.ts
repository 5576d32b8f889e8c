import type { Db } from 'mongodb';
import { COLLECTIONS } from './collections';
import { isDuplicateKeyError } from './mongo';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

interface KeyRecord {
  _id: string;
  bodyHash: string;
  invocationId: string;
  createdAt: Date;
}

export type ClaimResult = { kind: 'claimed' } | { kind: 'replay'; invocationId: string } | { kind: 'mismatch' };

/**
 * Idempotency-Key bookkeeping. The unique _id makes the claim atomic: of two concurrent requests with the same
 * key, exactly one starts a workflow. Keys older than the window are free to be reused.
 */
export class IdempotencyRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<KeyRecord>(COLLECTIONS.idempotencyKeys);
  }

  async claim(key: string, bodyHash: string, invocationId: string, now: Date): Promise<ClaimResult> {
    // A stale key (past the window) is released first so the insert below can take it.
    await this.coll.deleteOne({ _id: key, createdAt: { $lt: new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS) } });
    try {
      await this.coll.insertOne({ _id: key, bodyHash, invocationId, createdAt: now });
      return { kind: 'claimed' };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const existing = await this.coll.findOne({ _id: key });
      if (!existing) return this.claim(key, bodyHash, invocationId, now);
      return existing.bodyHash === bodyHash ? { kind: 'replay', invocationId: existing.invocationId } : { kind: 'mismatch' };
    }
  }

  /** The invocation id holding `key`, if any. */
  async holder(key: string): Promise<string | null> {
    return (await this.coll.findOne({ _id: key }))?.invocationId ?? null;
  }

  async release(key: string, invocationId: string): Promise<void> {
    await this.coll.deleteOne({ _id: key, invocationId });
  }
}
