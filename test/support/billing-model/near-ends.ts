/**
 * Customers whose access ends a few seconds after their events are sent, so the service's durable timers must
 * revoke it with no event to tell it: a cancelled monthly plan, one that simply was not renewed, a grace period
 * running out, a pause taking effect, a promotional grant ending. Histories like any other (history.ts), so the
 * reference model says what each must be before and after its end.
 */
import { CURRENCIES, DAY, MINUTE, PERIOD_MS, PROMO, productById } from './catalog';
import type { CustomerHistory, World } from './history';

const KINDS = ['cancelled', 'unrenewed', 'grace', 'paused', 'promo'] as const;

/** `count` customers (ids prefixed `prefix`), the i-th ending at `endsFromMs + i × stepMs`. */
export function nearEndWorld(count: number, endsFromMs: number, stepMs: number, prefix: string): World {
  const customers: CustomerHistory[] = [];
  for (let index = 0; index < count; index++) {
    const kind = KINDS[index % KINDS.length]!;
    const endAt = endsFromMs + index * stepMs;
    const product = productById(kind === 'paused' ? 'acme_pro:monthly' : 'com.acme.pro.monthly');
    const key = `${prefix}${2_000_000 + index}`;
    const c: CustomerHistory = {
      index,
      anonymousId: `$RCAnonymousID:${prefix}near${index.toString(16).padStart(4, '0')}`,
      userId: `${prefix}near_user_${index}`,
      identified: index % 2 === 0,
      login: null,
      sandbox: false,
      money: CURRENCIES[index % CURRENCIES.length]!,
      subscriptions: [],
      grants: [],
      enrollments: [],
      transfer: null,
    };
    if (kind === 'promo') {
      c.grants.push({ kind: 'promo', key, at: endAt - PROMO.lengthMs, end: endAt });
    } else {
      // The period ends at endAt (a grace period: the period ended a week ago and its grace ends at endAt).
      const end = kind === 'grace' ? endAt - 7 * DAY : endAt;
      const start = end - PERIOD_MS[product.period];
      const mid = start + 10 * DAY;
      const period = {
        kind: 'period' as const,
        at: start,
        start,
        end,
        statedStart: start,
        product,
        usd: product.usd,
        periodType: 'NORMAL' as const,
        event: 'INITIAL_PURCHASE' as const,
        conversion: false,
      };
      const store = kind === 'paused' ? 'PLAY_STORE' : 'APP_STORE';
      const more =
        kind === 'cancelled'
          ? [{ kind: 'cancel' as const, at: mid, reason: 'UNSUBSCRIBE' as const }]
          : kind === 'paused'
            ? [{ kind: 'pause' as const, at: mid, resumeAt: end + 30 * DAY }]
            : kind === 'grace'
              ? [{ kind: 'billingIssue' as const, at: end + 2 * MINUTE, periodEnd: end, graceEnd: endAt }]
              : [];
      c.subscriptions.push({ key, store, familyShare: false, phases: [period, ...more] });
    }
    customers.push(c);
  }
  return { horizonMs: endsFromMs - 1, customers, tests: [] };
}
