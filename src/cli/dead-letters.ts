import { DeadLetterService } from '../billing-intake/dead-letters';
import { connectTemporal } from '../temporal';
import { requireScope, type CliCommand } from './command';
import { withStore } from './with-store';

const PAGE = 200;

/**
 * Lists a scope's parked billing work and retries it: one dead letter by id, or every parked one of the scope
 * (once the cause is fixed). Exit 0 when everything asked for was handed back, 1 when something was refused.
 */
export const deadLettersCommand: CliCommand = {
  summary: 'List a billing scope’s dead letters; --retry ID or --retry-all hands them back to their workflows',
  usage: '--scope operator|app:SLUG [--retry ID | --retry-all]',
  options: { scope: { type: 'string' }, retry: { type: 'string' }, 'retry-all': { type: 'boolean' } },
  async run(values) {
    const scope = requireScope(values);
    return withStore(async (repos, config) => {
      const repo = repos.deadLetters;
      const parked = await repo.list(scope, { status: 'parked', limit: PAGE });
      if (values.retry === undefined && !values['retry-all']) {
        process.stdout.write(`${parked.length}${parked.length === PAGE ? '+' : ''} parked in ${scope}\n`);
        for (const r of parked) {
          process.stdout.write(`${r._id}  ${r.parkedAt.toISOString()}  ${r.stage.padEnd(6)} ${r.type ?? '-'} ${r.eventId ?? '-'} (${r.subscriberId ?? '-'}) ×${r.attempts}\n    ${r.reason}\n`);
        }
        return 0;
      }
      const ids = values['retry-all'] ? parked.map((r) => r._id) : [String(values.retry)];
      const temporal = await connectTemporal(config.temporal);
      try {
        const service = new DeadLetterService(repo, temporal.client, config.temporal.taskQueue);
        let refused = 0;
        for (const id of ids) {
          const result = await service.retry(id);
          const what = result.outcome === 'refused' ? `refused, still parked: ${result.reason}` : result.outcome.replace('_', ' ');
          if (result.outcome !== 'retried') refused += 1;
          process.stdout.write(`${id}  ${what}\n`);
        }
        return refused === 0 ? 0 : 1;
      } finally {
        await temporal.close();
      }
    });
  },
};
