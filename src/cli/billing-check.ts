import { diffContribution, mrrAmount, ZERO_TOTALS, type BillingTotals } from '../billing/metrics';
import type { BillingScope } from '../billing/subscriber-id';
import { connectTemporal } from '../temporal/client';
import { sendTotalsDelta } from '../temporal/clients/billing-metrics';
import { requireScope, type CliCommand } from './command';
import { withStore } from './with-store';
import type { Repositories } from '../store/repositories';

/** How long --repair watches the scope for events in flight before it corrects anything. */
const SETTLE_MS = 3_000;
const REPAIR_DEADLINE_MS = 30_000;

interface Snapshot {
  running: BillingTotals;
  seq: number;
  recomputed: BillingTotals;
  subscribers: number;
  updatedAt: Date | null;
}

async function snapshot(repos: Repositories, scope: BillingScope): Promise<Snapshot> {
  const totals = repos.billingTotals;
  const full = await repos.subscribers.sumContributions(scope);
  const stored = await totals.stored(scope);
  return {
    running: stored?.totals ?? { ...ZERO_TOTALS },
    seq: stored?.seq ?? 0,
    recomputed: full.totals,
    subscribers: full.subscribers,
    updatedAt: stored?.updatedAt ?? null,
  };
}

const same = (a: BillingTotals, b: BillingTotals) => (Object.keys(a) as (keyof BillingTotals)[]).every((k) => a[k] === b[k]);

/**
 * The full recompute: sums every subscriber's stored contribution and compares it with the running totals the
 * metrics workflow keeps by deltas. They must agree once in-flight events have settled; exit 1 if not.
 * `--repair` corrects a disagreement that stays while nothing moves (a subscriber run that ended abnormally
 * between storing its record and sending its delta): it sends the metrics workflow the difference.
 */
export const billingCheckCommand: CliCommand = {
  summary: 'Recompute a billing scope’s totals from every subscriber and compare with the running totals (--repair corrects them)',
  usage: '--scope operator|app:SLUG [--repair]',
  options: { scope: { type: 'string' }, repair: { type: 'boolean' } },
  async run(values) {
    const scope = requireScope(values);
    return withStore(async (repos, config) => {
      const first = await snapshot(repos, scope);
      const agree = report(scope, first);
      if (agree || !values.repair) return agree ? 0 : 1;

      // Only a disagreement that holds while nothing changes is a lasting one: deltas in flight also disagree.
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const second = await snapshot(repos, scope);
      if (second.seq !== first.seq || !same(second.recomputed, first.recomputed) || !same(second.running, first.running)) {
        process.stdout.write('the scope changed while it was watched (events in flight); nothing repaired, run again\n');
        return 1;
      }
      const correction = diffContribution(second.running, second.recomputed);
      const temporal = await connectTemporal(config.temporal);
      try {
        await sendTotalsDelta(temporal.client, config.temporal.taskQueue, scope, correction);
      } finally {
        await temporal.close();
      }
      const deadline = Date.now() + REPAIR_DEADLINE_MS;
      for (let wait = 100; Date.now() < deadline; wait = Math.min(wait * 2, 1_000)) {
        await new Promise((r) => setTimeout(r, wait));
        const after = await snapshot(repos, scope);
        if (after.seq > second.seq) {
          const repaired = same(after.running, after.recomputed);
          process.stdout.write(
            repaired
              ? 'repaired: the running totals now agree\n'
              : 'the correction was applied but the totals still disagree (events arrived meanwhile); run again\n',
          );
          return repaired ? 0 : 1;
        }
      }
      process.stdout.write('the correction was sent, but the metrics workflow has not applied it yet (is a worker running?)\n');
      return 1;
    });
  },
};

function report(scope: BillingScope, s: Snapshot): boolean {
  const show = (t: BillingTotals, k: keyof BillingTotals) => (k === 'mrrMicros' ? `$${mrrAmount(t).amount.toFixed(2)}` : String(t[k]));
  const keys = Object.keys(s.recomputed) as (keyof BillingTotals)[];
  // Compared exactly (micro-dollars), shown rounded.
  // MRR is stored in micro-dollars and shown in dollars: the row says which.
  const label = (k: keyof BillingTotals) => (k === 'mrrMicros' ? 'mrr (USD)' : k);
  const rows = keys.map((k) => ({
    k: label(k),
    a: show(s.running, k),
    b: show(s.recomputed, k),
    same: s.running[k] === s.recomputed[k],
  }));
  process.stdout.write(
    `scope ${scope}: ${s.subscribers} subscriber records; running totals updated ${s.updatedAt?.toISOString() ?? 'never'}\n`,
  );
  process.stdout.write(`${'total'.padEnd(22)}${'running'.padStart(14)}${'recomputed'.padStart(14)}\n`);
  for (const r of rows) process.stdout.write(`${r.k.padEnd(22)}${r.a.padStart(14)}${r.b.padStart(14)}${r.same ? '' : '   MISMATCH'}\n`);
  const agree = rows.every((r) => r.same);
  process.stdout.write(agree ? 'agree\n' : 'DISAGREE (if events are still in flight, run again in a few seconds)\n');
  return agree;
}
