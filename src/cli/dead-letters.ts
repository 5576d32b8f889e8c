import { DeadLetterService } from '../billing-intake/dead-letters';
import { connectTemporal } from '../temporal/client';
import { requireScope, type CliCommand } from './command';
import { API_OPTIONS, apiSettings, callApi, type ApiSettings } from './api-client';
import { withStore } from './with-store';

const PAGE = 200;

/**
 * Lists a scope's parked billing work and retries it: one dead letter by id, or every parked one of the scope
 * (once the cause is fixed). Exit 0 when everything asked for was handed back, 1 when something was refused.
 */
export const deadLettersCommand: CliCommand = {
  summary: 'List a billing scope’s dead letters; --retry ID or --retry-all hands them back to their workflows',
  usage: '--scope operator|app:SLUG [--retry ID | --retry-all] [--api URL --token JWT]',
  options: { scope: { type: 'string' }, retry: { type: 'string' }, 'retry-all': { type: 'boolean' }, ...API_OPTIONS },
  async run(values) {
    const scope = requireScope(values);
    const api = apiSettings(values);
    if (api) return overApi(api, scope, values);
    return withStore(async (repos, config) => {
      const repo = repos.deadLetters;
      const parked = await repo.list(scope, { status: 'parked', limit: PAGE });
      if (values.retry === undefined && !values['retry-all']) {
        process.stdout.write(`${parked.length}${parked.length === PAGE ? '+' : ''} parked in ${scope}\n`);
        for (const r of parked) {
          process.stdout.write(
            `${r._id}  ${r.parkedAt.toISOString()}  ${r.stage.padEnd(6)} ${r.type ?? '-'} ${r.eventId ?? '-'} (${r.subscriberId ?? '-'}) ×${r.attempts}\n    ${r.reason}\n`,
          );
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

/** The same through the HTTP API (listing is for the app's readers, retrying for admins). */
async function overApi(api: ApiSettings, scope: string, values: Record<string, unknown>): Promise<number> {
  const query = scope === 'operator' ? '' : `app=${encodeURIComponent(scope.slice(4))}&`;
  const page = await callApi<{
    deadLetters: {
      id: string;
      parkedAt: string;
      stage: string;
      type: string | null;
      eventId: string | null;
      subscriberId: string | null;
      attempts: number;
      reason: string;
    }[];
  }>(api, 'GET', `/v1/billing/dead-letters?${query}status=parked&limit=${PAGE}`);
  if (values.retry === undefined && !values['retry-all']) {
    process.stdout.write(`${page.deadLetters.length}${page.deadLetters.length === PAGE ? '+' : ''} parked in ${scope}\n`);
    for (const r of page.deadLetters)
      process.stdout.write(
        `${r.id}  ${r.parkedAt}  ${r.stage.padEnd(6)} ${r.type ?? '-'} ${r.eventId ?? '-'} (${r.subscriberId ?? '-'}) ×${r.attempts}\n    ${r.reason}\n`,
      );
    return 0;
  }
  const ids = values['retry-all'] ? page.deadLetters.map((r) => r.id) : [String(values.retry)];
  let refused = 0;
  for (const id of ids) {
    try {
      await callApi(api, 'POST', `/v1/billing/dead-letters/${encodeURIComponent(id)}/retry`);
      process.stdout.write(`${id}  retried\n`);
    } catch (err) {
      refused += 1;
      process.stdout.write(`${id}  ${(err as Error).message}\n`);
    }
  }
  return refused === 0 ? 0 : 1;
}
