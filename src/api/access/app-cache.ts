import type { AppRecord, AppRepository } from '../../store/apps';

const TTL_MS = 5_000;
/** Entries of each kind; past it the least recently used goes. */
const MAX_ENTRIES = 10_000;

/**
 * Apps by slug, cached for a few seconds: every webhook delivery needs its app's digests, and a store read per
 * request would cost the receiver as much as storing the event. A miss (or a value that does not match, in
 * case the app was just created or rotated) reads through, so a new value works at once; a deleted app or a
 * value past its grace period may keep working for at most TTL_MS on an instance that cached it.
 *
 * Apps and slugs without an app are kept apart, each least-recently-used first out past MAX_ENTRIES: anyone can
 * send unknown slugs, and they must not push the apps that deliveries use out of the cache.
 */
export class AppCache {
  private readonly known: Lru<AppRecord>;
  private readonly unknown: Lru<null>;

  constructor(
    private readonly apps: AppRepository,
    private readonly clock: () => number = Date.now,
    maxEntries = MAX_ENTRIES,
  ) {
    this.known = new Lru(maxEntries);
    this.unknown = new Lru(maxEntries);
  }

  /** Called on rotation and deletion, so this instance applies them at once. */
  forget(slug: string): void {
    this.known.delete(slug);
    this.unknown.delete(slug);
  }

  async get(slug: string, fresh = false): Promise<AppRecord | null> {
    return (await this.lookup(slug, fresh)).app;
  }

  /** The app, and whether it came from the cache (a copy up to TTL_MS old) or from the store just now. */
  async lookup(slug: string, fresh = false): Promise<{ app: AppRecord | null; cached: boolean }> {
    const now = this.clock();
    if (!fresh) {
      const hit = this.known.get(slug, now) ?? this.unknown.get(slug, now);
      if (hit !== undefined) return { app: hit, cached: true };
    }
    const app = await this.apps.get(slug);
    this.forget(slug);
    if (app) this.known.set(slug, app, now + TTL_MS);
    else this.unknown.set(slug, null, now + TTL_MS);
    return { app, cached: false };
  }
}

/** A Map in least-recently-used order (a read moves an entry last), with expiring entries. */
class Lru<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  constructor(private readonly max: number) {}

  get(key: string, now: number): T | undefined {
    const hit = this.entries.get(key);
    if (!hit || hit.until <= now) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: T, until: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.max) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
