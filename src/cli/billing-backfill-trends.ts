import { DAY_MS, DailyTrendBuilder } from '../billing/daily-trend';
import { utcDay } from '../store/billing-daily';
import { requireScope, type CliCommand } from './command';
import { withStore } from './with-store';

/**
 * Rebuilds a scope's daily trend points (the console's charts) from every subscriber record: for when the
 * points were never kept (a scope older than the console) or are doubted. A scan, so a command, never a request.
 */
export const billingBackfillTrendsCommand: CliCommand = {
  summary: 'Rebuild a billing scope’s daily trend points (MRR, subscriptions, trials, flagged, churn) from the subscriber records',
  usage: '--scope operator|app:SLUG [--days 365]',
  options: { scope: { type: 'string' }, days: { type: 'string' } },
  async run(values) {
    const scope = requireScope(values);
    const days = values.days === undefined ? 365 : Number(values.days);
    if (!Number.isInteger(days) || days < 1 || days > 3650) throw new Error('--days must be an integer from 1 to 3650');
    return withStore(async (repos) => {
      const today = Date.parse(`${utcDay(Date.now())}T00:00:00Z`);
      const starts = Array.from({ length: days }, (_, i) => today - (days - 1 - i) * DAY_MS);
      const builder = new DailyTrendBuilder(starts);
      let n = 0;
      for await (const state of repos.subscribers.states(scope)) {
        builder.add(state);
        if (++n % 10_000 === 0) process.stderr.write(`[backfill] ${n} subscribers read\n`);
      }
      const daily = repos.billingDaily;
      const now = new Date();
      for (const { dayStartMs, ...point } of builder.points()) await daily.replace(scope, { day: utcDay(dayStartMs), ...point }, now);
      process.stdout.write(
        `scope ${scope}: ${n} subscriber records, ${days} daily points rebuilt (${utcDay(starts[0]!)} to ${utcDay(today)})\n`,
      );
      return 0;
    });
  },
};
