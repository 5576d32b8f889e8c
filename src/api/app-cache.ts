import type { AppRecord, AppRepository } from '../store/apps';

const TTL_MS = 5_000;

/**
 * Apps by slug, cached for a few seconds: every webhook delivery needs its app's digests, and a store read per
 * request would cost the receiver as much as storing the event. A miss (or a value that does not match, in
 * case the app was just created or rotated) reads through, so a new value works at once; a deleted app or a
 * value past its grace period may keep working for at most TTL_MS on an instance that cached it.
 */
export class AppCache {
  private readonly entries = new Map<string, { app: AppRecord | null; until: number }>();

  constructor(
    private readonly apps: AppRepository,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Called on rotation and deletion, so this instance applies them at once. */
  forget(slug: string): void {
    this.entries.delete(slug);
  }

  async get(slug: string, fresh = false): Promise<AppRecord | null> {
    const hit = this.entries.get(slug);
    if (!fresh && hit && hit.until > this.clock()) return hit.app;
    const app = await this.apps.get(slug);
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(slug, { app, until: this.clock() + TTL_MS });
    return app;
  }
}
