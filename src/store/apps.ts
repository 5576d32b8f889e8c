import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from 'mongodb';
import { COLLECTIONS } from './collections';
import { isDuplicateKeyError } from './mongo';

export interface AppRecord {
  _id: string;
  name: string;
  /** SHA-256 of the webhook Authorization value; the value itself is shown once and never stored. */
  authorizationDigest: string;
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

/** A fresh webhook Authorization value: 256 bits of entropy, recognisable by its prefix in a leaked-secret scan. */
export function generateAuthorization(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function digestOf(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison over digests: equal length always, so neither length nor content leaks. */
export function digestMatches(presented: string, storedDigestHex: string | null): boolean {
  if (!storedDigestHex) return false;
  return timingSafeEqual(digestOf(presented), Buffer.from(storedDigestHex, 'hex'));
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
      { $set: { deletedAt: now, authorizationDigest: '', previousAuthorizationDigest: null, previousValidUntil: null } },
    );
    return res.modifiedCount > 0;
  }

  /** New value now; the previous one keeps working until `previousValidUntil` (the provider's retry window). */
  async rotate(slug: string, graceMs: number, now: Date): Promise<{ authorization: string; previousValidUntil: Date } | null> {
    const current = await this.get(slug);
    if (!current) return null;
    const authorization = generateAuthorization();
    const previousValidUntil = new Date(now.getTime() + graceMs);
    const res = await this.coll.updateOne(
      { _id: slug, authorizationDigest: current.authorizationDigest },
      {
        $set: {
          authorizationDigest: digestOf(authorization).toString('hex'),
          previousAuthorizationDigest: current.authorizationDigest,
          previousValidUntil,
          rotatedAt: now,
        },
      },
    );
    // A concurrent rotation won the race: rotate again on top of it rather than lose either value silently.
    if (res.matchedCount === 0) return this.rotate(slug, graceMs, now);
    return { authorization, previousValidUntil };
  }
}

/** Turns outbound webhooks on or off for an app; false when there is no such app. */
export async function setOutboundAccess(db: Db, slug: string, enabled: boolean, contactEmail: string | null | undefined): Promise<boolean> {
  const set: Partial<AppRecord> = { outboundAccess: enabled };
  if (contactEmail !== undefined) set.outboundContactEmail = contactEmail;
  const res = await db.collection<AppRecord>(COLLECTIONS.apps).updateOne({ _id: slug, deletedAt: null }, { $set: set });
  return res.matchedCount > 0;
}

/** Whether `presented` authorizes webhooks for `app` at `now` (the current value, or the previous within grace). */
export function appAuthorizes(app: AppRecord | null, presented: string, now: Date): boolean {
  // Compare against something even for an unknown app, so timing does not tell known slugs from unknown ones.
  const current = digestMatches(presented, app?.authorizationDigest ?? '0'.repeat(64));
  const previous =
    app?.previousAuthorizationDigest && app.previousValidUntil && app.previousValidUntil > now
      ? digestMatches(presented, app.previousAuthorizationDigest)
      : false;
  return app !== null && (current || previous);
}
