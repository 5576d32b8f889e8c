import type { Db } from 'mongodb';
import { COLLECTIONS } from './collections';
import { isDuplicateKeyError } from './mongo';
import { digestOf, generateAuthorization, graceAfterRotation, type GraceDigest } from '../auth/webhook-authorization';

export interface AppRecord {
  _id: string;
  name: string;
  /** SHA-256 of the webhook Authorization value; the value itself is shown once and never stored. */
  authorizationDigest: string;
  /** Values rotated out and still in their grace period (see webhook-authorization.ts). */
  graceDigests?: GraceDigest[];
  /** Written before graceDigests: the one rotated-out value. Cleared by the next rotation. */
  previousAuthorizationDigest: string | null;
  previousValidUntil: Date | null;
  createdAt: Date;
  rotatedAt: Date | null;
  /**
   * Set when the app is deleted. The record stays as a tombstone: subscribers, totals and the inbox are kept
   * under `app:{slug}`, so a new app must not take over the slug and see a former customer's data.
   */
  deletedAt?: Date | null;
  /** Outbound webhooks (private preview) are on for this app; set by an admin. */
  outboundAccess?: boolean;
  /** Who is emailed when an outbound endpoint is disabled automatically. */
  outboundContactEmail?: string | null;
}

export class AppRepository {
  constructor(private readonly db: Db) {}

  private get coll() {
    return this.db.collection<AppRecord>(COLLECTIONS.apps);
  }

  /** Creates an app; returns its one-time authorization value, or null if the slug is taken. */
  async create(slug: string, name: string, now: Date): Promise<{ app: AppRecord; authorization: string } | null> {
    const authorization = generateAuthorization();
    const app: AppRecord = {
      _id: slug,
      name,
      authorizationDigest: digestOf(authorization).toString('hex'),
      previousAuthorizationDigest: null,
      previousValidUntil: null,
      createdAt: now,
      rotatedAt: null,
    };
    try {
      await this.coll.insertOne(app);
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
    return { app, authorization };
  }

  get(slug: string): Promise<AppRecord | null> {
    return this.coll.findOne({ _id: slug, deletedAt: null });
  }

  /** Whether a deleted app once used this slug (so it cannot be created again). */
  async retired(slug: string): Promise<boolean> {
    return (await this.coll.findOne({ _id: slug, deletedAt: { $ne: null } }, { projection: { _id: 1 } })) !== null;
  }

  list(): Promise<AppRecord[]> {
    return this.coll.find({ deletedAt: null }).sort({ _id: 1 }).limit(1000).toArray();
  }

  /** Deletes the app: its authorization stops working at once; the slug stays taken (see deletedAt). */
  async remove(slug: string, now: Date): Promise<boolean> {
    const res = await this.coll.updateOne(
      { _id: slug, deletedAt: null },
      { $set: { deletedAt: now, authorizationDigest: '', graceDigests: [], previousAuthorizationDigest: null, previousValidUntil: null } },
    );
    return res.modifiedCount > 0;
  }

  /**
   * New value now. The value rotated out keeps working for `graceMs` (the provider's retry window), and so does
   * every value an earlier rotation left in grace, however quickly rotations follow each other. `revoke`: only the
   * new value works from now on (a leaked value). `previousValidUntil`: when the value rotated out stops working.
   */
  async rotate(
    slug: string,
    graceMs: number,
    now: Date,
    revoke = false,
  ): Promise<{ authorization: string; previousValidUntil: Date } | null> {
    const current = await this.get(slug);
    if (!current) return null;
    const authorization = generateAuthorization();
    const graceDigests = graceAfterRotation(current, now, graceMs, revoke);
    const res = await this.coll.updateOne(
      { _id: slug, authorizationDigest: current.authorizationDigest },
      {
        $set: {
          authorizationDigest: digestOf(authorization).toString('hex'),
          graceDigests,
          previousAuthorizationDigest: null,
          previousValidUntil: null,
          rotatedAt: now,
        },
      },
    );
    // A concurrent rotation won the race: rotate again on top of it, so its value is kept in grace too.
    if (res.matchedCount === 0) return this.rotate(slug, graceMs, now, revoke);
    return { authorization, previousValidUntil: revoke || graceMs === 0 ? now : new Date(now.getTime() + graceMs) };
  }

  /** Turns outbound webhooks on or off for an app; false when there is no such app. */
  async setOutboundAccess(slug: string, enabled: boolean, contactEmail: string | null | undefined): Promise<boolean> {
    const set: Partial<AppRecord> = { outboundAccess: enabled };
    if (contactEmail !== undefined) set.outboundContactEmail = contactEmail;
    const res = await this.coll.updateOne({ _id: slug, deletedAt: null }, { $set: set });
    return res.matchedCount > 0;
  }
}
