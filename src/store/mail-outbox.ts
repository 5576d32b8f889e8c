import type { Db } from 'mongodb';
import type { OutgoingMail } from '../mail/mailer';
import { COLLECTIONS } from './collections';
import { isDuplicateKeyError } from './mongo';

export interface OutboxRecord extends OutgoingMail {
  _id: string;
  /** `sending`: claimed by an attempt that is sending it (see claim()). */
  status: 'pending' | 'sending' | 'sent' | 'kept';
  /** When the current claim was taken (status `sending`), and how many claims were ever taken. */
  claimedAt?: Date;
  attempts?: number;
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
   * Takes the right to send `key` for `leaseMs`, which the attempt renews while it sends (renew()). A claim older
   * than its lease belongs to an attempt that is over (it crashed mid-send, or could not record the send), so it
   * may be taken again: delivery is at least once, and a mail sent twice carries the same Message-ID for the
   * recipient's client to fold. `held` means a claim within its lease: another attempt may be sending right now.
   * `claimed` carries the claim's time, which renew() expects.
   */
  async claim(
    key: string,
    now: Date,
    leaseMs: number,
  ): Promise<{ status: 'claimed'; claimedAt: Date } | { status: 'sent' } | { status: 'kept' } | { status: 'held'; claimedAt: Date }> {
    const res = await this.coll.updateOne(
      // A claim without claimedAt (taken before leases existed) counts as over.
      {
        _id: key,
        $or: [
          { status: 'pending' },
          { status: 'sending', claimedAt: { $lt: new Date(now.getTime() - leaseMs) } },
          { status: 'sending', claimedAt: { $exists: false } },
        ],
      },
      { $set: { status: 'sending', claimedAt: now }, $inc: { attempts: 1 } },
    );
    if (res.modifiedCount > 0) return { status: 'claimed', claimedAt: now };
    const current = await this.coll.findOne({ _id: key }, { projection: { status: 1, claimedAt: 1 } });
    if (current?.status === 'sent') return { status: 'sent' };
    if (current?.status === 'kept') return { status: 'kept' };
    return { status: 'held', claimedAt: current?.claimedAt ?? now };
  }

  /**
   * Extends the claim taken (or last renewed) at `heldSince` to `now`; null when it is no longer this attempt's
   * (its lease ran out and another attempt took it).
   */
  async renew(key: string, heldSince: Date, now: Date): Promise<Date | null> {
    const res = await this.coll.updateOne({ _id: key, status: 'sending', claimedAt: heldSince }, { $set: { claimedAt: now } });
    return res.modifiedCount > 0 ? now : null;
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
