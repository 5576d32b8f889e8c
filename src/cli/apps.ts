import { SLUG_RE as SLUG } from '../contracts/ids';
import { APP_WEBHOOK_PATH } from '../contracts/webhook-paths';
import { requireString, type CliCommand } from './command';
import { API_OPTIONS, apiSettings, callApi } from './api-client';
import { withStore } from './with-store';

function printWebhookSetup(url: string, authorization: string): void {
  process.stdout.write(
    [
      'Paste these into the billing provider’s webhook settings for this app:',
      `  Webhook URL:           ${url}`,
      `  Authorization header:  ${authorization}`,
      'The authorization value is shown this once; only its digest is stored.',
      '',
    ].join('\n'),
  );
}

export const connectAppCommand: CliCommand = {
  summary: 'Connect a customer app: generates its webhook authorization and prints what to paste into the provider',
  usage: '--slug SLUG --name NAME [--api URL --token ADMIN_JWT]',
  options: { slug: { type: 'string' }, name: { type: 'string' }, ...API_OPTIONS },
  async run(values) {
    const slug = requireString(values, 'slug');
    if (!SLUG.test(slug)) throw new Error(`--slug must match ${SLUG.source}`);
    const name = requireString(values, 'name');
    const api = apiSettings(values);
    if (api) {
      const created = await callApi<{ webhookUrl: string; authorization: string }>(api, 'POST', '/v1/apps', { slug, name });
      printWebhookSetup(created.webhookUrl, created.authorization);
      return 0;
    }
    return withStore(async (repos, config) => {
      const created = await repos.apps.create(slug, name, new Date());
      if (!created) throw new Error(`an app with slug "${slug}" already exists (rotate its authorization with rotate-app-authorization)`);
      printWebhookSetup(`${config.http.publicBaseUrl}${APP_WEBHOOK_PATH}?app=${slug}`, created.authorization);
      return 0;
    });
  },
};

export const rotateAppCommand: CliCommand = {
  summary:
    "Rotate an app's webhook authorization; the previous value keeps working for WEBHOOK_ROTATION_GRACE_HOURS (--revoke-previous: not at all)",
  usage: '--slug SLUG [--revoke-previous]',
  options: { slug: { type: 'string' }, 'revoke-previous': { type: 'boolean' } },
  async run(values) {
    const slug = requireString(values, 'slug');
    const revoke = values['revoke-previous'] === true;
    return withStore(async (repos, config) => {
      const rotated = await repos.apps.rotate(slug, config.webhooks.rotationGraceHours * 3600_000, new Date(), revoke);
      if (!rotated) throw new Error(`no app "${slug}"`);
      printWebhookSetup(`${config.http.publicBaseUrl}${APP_WEBHOOK_PATH}?app=${slug}`, rotated.authorization);
      process.stdout.write(
        revoke
          ? 'Every earlier value stopped working now.\n'
          : `The previous value keeps working until ${rotated.previousValidUntil.toISOString()}.\n`,
      );
      return 0;
    });
  },
};
