import { requireString, type CliCommand } from './command';
import { API_OPTIONS, apiSettings, callApi } from './api-client';
import { withStore } from './with-store';

export const outboundAccessCommand: CliCommand = {
  summary: 'Give an app early access to outbound webhooks (private preview), or take it away',
  usage: '--slug SLUG (--enable | --disable) [--contact-email EMAIL] [--api URL --token ADMIN_JWT]',
  options: {
    slug: { type: 'string' },
    enable: { type: 'boolean' },
    disable: { type: 'boolean' },
    'contact-email': { type: 'string' },
    ...API_OPTIONS,
  },
  async run(values) {
    const slug = requireString(values, 'slug');
    if (Boolean(values.enable) === Boolean(values.disable)) throw new Error('give exactly one of --enable or --disable');
    const contact = values['contact-email'];
    if (contact !== undefined && (typeof contact !== 'string' || contact.length > 254 || !contact.includes('@')))
      throw new Error('--contact-email must be an email address');
    const api = apiSettings(values);
    if (api) {
      await callApi(api, 'PUT', `/v1/apps/${encodeURIComponent(slug)}/outbound-access`, {
        enabled: values.enable === true,
        ...(contact !== undefined ? { contactEmail: contact } : {}),
      });
      process.stdout.write(`outbound webhooks ${values.enable ? 'enabled' : 'disabled'} for ${slug}\n`);
      return 0;
    }
    return withStore(async (repos) => {
      if (!(await repos.apps.setOutboundAccess(slug, values.enable === true, contact as string | undefined)))
        throw new Error(`no app "${slug}"`);
      process.stdout.write(`outbound webhooks ${values.enable ? 'enabled' : 'disabled'} for ${slug}\n`);
      return 0;
    });
  },
};
