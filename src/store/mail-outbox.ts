import type { Db } from 'mongodb';
import type { OutgoingMail } from '../mail';
import { COLLECTIONS } from './collections';
import { isDuplicateKeyError } from './mongo';

export interface OutboxRecord extends OutgoingMail {
  _id: string;
  /** `sending`: claimed by an attempt that is sending it (see claim()). */
  status: 'pending' | 'sending' | 'sent' | 'kept';
  createdAt: Date;
  sentAt: Date | null;
}

/**
 * Every mail the service sends, keyed by its idempotency key. A retried activity finds the record and does not
 * send twice once it is marked sent; with no SMTP relay configured, mail is kept here (status "kept").
 */
export class MailOutbox {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<OutboxRecord>(COLLECTIONS.outbox);
  }

  /** Records the mail unless already there; returns the stored record. */
  async record(key: string, mail: OutgoingMail, now: Date): Promise<OutboxRecord> {
    try {
      const rec: OutboxRecord = { _id: key, ...mail, status: 'pending', createdAt: now, sentAt: null };
      await this.coll.insertOne(rec);
      return rec;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      return (await this.coll.findOne({ _id: key }))!;
    }
  }

  /**
   * Takes the right to send `key`: only one attempt ever gets it. `in_doubt` means an earlier attempt took it
   * and neither finished nor gave it back (it crashed mid-send, or could not record the send): the mail may
   * have gone out, so it is not sent again.
   */
  async claim(key: string, now: Date): Promise<'claimed' | 'sent' | 'kept' | 'in_doubt'> {
    const res = await this.coll.updateOne({ _id: key, status: 'pending' }, { $set: { status: 'sending', claimedAt: now } });
    if (res.modifiedCount > 0) return 'claimed';
    const current = await this.coll.findOne({ _id: key }, { projection: { status: 1 } });
    return current?.status === 'sent' ? 'sent' : current?.status === 'kept' ? 'kept' : 'in_doubt';
  }

  /** A send that failed before anything went out: the next attempt may claim it again. */
  async release(key: string): Promise<void> {
    await this.coll.updateOne({ _id: key, status: 'sending' }, { $set: { status: 'pending' } });
  }

  async mark(key: string, status: 'sent' | 'kept', now: Date): Promise<void> {
    await this.coll.updateOne({ _id: key }, { $set: { status, sentAt: status === 'sent' ? now : null } });
  }

  list(limit = 100): Promise<OutboxRecord[]> {
    return this.coll.find({}).sort({ createdAt: -1 }).limit(limit).toArray();
  }
}
