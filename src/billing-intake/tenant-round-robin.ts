/**
 * The relay's waiting room: items queued by key (a subscriber workflow), keys grouped by tenant (a billing scope).
 * `take` serves the tenant served longest ago (one never served first), and within a tenant the key whose oldest
 * item came first; so one app's burst of thousands of subscribers delays another app's next event by one call,
 * not by the whole burst. A key that is busy (a call of its own in flight) is passed over until it is free, which
 * keeps its items in order.
 */
export class TenantRoundRobin<T> {
  /** Tenants with items waiting; each tenant's keys in the order their oldest item came. */
  private readonly tenants = new Map<string, Map<string, T[]>>();
  /**
   * When each tenant was last served (a counter). Kept after a tenant's queue empties, so that a tenant whose
   * every item leaves at once (a burst while calls are free) still counts as just served; pruned to the tenants
   * waiting once it grows past them by PRUNE_SLACK.
   */
  private readonly lastServed = new Map<string, number>();
  private served = 0;

  push(tenant: string, key: string, item: T): void {
    let keys = this.tenants.get(tenant);
    if (!keys) this.tenants.set(tenant, (keys = new Map()));
    const list = keys.get(key);
    if (list) list.push(item);
    else keys.set(key, [item]);
  }

  /**
   * The first free key of the tenant served longest ago, with the items `cut` takes from the front of its list (at
   * least one); tenants `full` says have their share in flight are passed over. Null when every waiting key is busy
   * or its tenant full, or nothing waits.
   */
  take(
    busy: (key: string) => boolean,
    cut: (list: T[]) => T[],
    full: (tenant: string) => boolean = () => false,
  ): { key: string; tenant: string; items: T[] } | null {
    let pick: { tenant: string; keys: Map<string, T[]>; key: string; list: T[] } | null = null;
    let pickAt = Number.POSITIVE_INFINITY;
    for (const [tenant, keys] of this.tenants) {
      const at = this.lastServed.get(tenant) ?? 0;
      if (at >= pickAt || full(tenant)) continue;
      for (const [key, list] of keys) {
        if (busy(key)) continue;
        pick = { tenant, keys, key, list };
        pickAt = at;
        break;
      }
    }
    if (!pick) return null;
    const items = cut(pick.list);
    if (pick.list.length === 0) pick.keys.delete(pick.key);
    if (pick.keys.size === 0) this.tenants.delete(pick.tenant);
    this.lastServed.set(pick.tenant, ++this.served);
    if (this.lastServed.size > this.tenants.size + PRUNE_SLACK)
      for (const tenant of this.lastServed.keys()) if (!this.tenants.has(tenant)) this.lastServed.delete(tenant);
    return { key: pick.key, tenant: pick.tenant, items };
  }

  /** How many tenants have items waiting. */
  get tenantCount(): number {
    return this.tenants.size;
  }
}

/** Idle tenants remembered beyond the waiting ones before the memory is pruned (bounded memory). */
const PRUNE_SLACK = 1_000;
