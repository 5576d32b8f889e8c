import { mrrAmount, type BillingTotals } from '../billing/metrics';
import type { BillingScope } from '../billing/subscriber-id';
import { BillingTotalsRepository } from '../store/billing-totals';
import { SubscriberRepository } from '../store/subscribers';
import { requireString, type CliCommand } from './command';
import { withStore } from './with-store';

/**
 * The full recompute: sums every subscriber's stored contribution and compares it with the running totals the
 * metrics workflow keeps by deltas. They must agree once in-flight events have settled; exit 1 if not.
 */
export const billingCheckCommand: CliCommand = {
  summary: 'Recompute a billing scope’s totals from every subscriber and compare with the running totals',
  usage: '--scope operator|app:SLUG',
  options: { scope: { type: 'string' } },
  async run(values) {
    const scope = requireString(values, 'scope') as BillingScope;
    if (scope !== 'operator' && !scope.startsWith('app:')) throw new Error('--scope must be operator or app:SLUG');
    return withStore(async (store) => {
      const full = await new SubscriberRepository(store.db).sumContributions(scope);
      const running = await new BillingTotalsRepository(store.db).get(scope);
      const show = (t: BillingTotals, k: keyof BillingTotals) => (k === 'mrrMicros' ? `$${mrrAmount(t).amount.toFixed(2)}` : String(t[k]));
      const keys = Object.keys(full.totals) as (keyof BillingTotals)[];
      // Compared exactly (micro-dollars), shown rounded.
      const rows = keys.map((k) => ({ k, a: show(running.totals, k), b: show(full.totals, k), same: running.totals[k] === full.totals[k] }));
      process.stdout.write(`scope ${scope}: ${full.subscribers} subscriber records; running totals updated ${running.updatedAt?.toISOString() ?? 'never'}\n`);
      process.stdout.write(`${'total'.padEnd(22)}${'running'.padStart(14)}${'recomputed'.padStart(14)}\n`);
      for (const r of rows) process.stdout.write(`${r.k.padEnd(22)}${r.a.padStart(14)}${r.b.padStart(14)}${r.same ? '' : '   MISMATCH'}\n`);
      const agree = rows.every((r) => r.same);
      process.stdout.write(agree ? 'agree\n' : 'DISAGREE (if events are still in flight, run again in a few seconds)\n');
      return agree ? 0 : 1;
    });
  },
};
