import Router from '@koa/router';
import type { AppRecord } from '../../store/apps';
import type { AppDeps } from '../deps';
import { checkId } from '../http/ids';
import { API_BODY_LIMIT } from '../http/limits';
import { authenticate, requireAdmin } from '../access/authenticate';
import { jsonBody } from '../middleware/json-body';
import { badRequest, conflict, notFound } from '../http/problem';
import { liveGraceDigests } from '../../auth/webhook-authorization';
import { validate } from '../http/validation';
import { APP_BODY_SCHEMA } from '../../contracts/bodies';
import { APP_WEBHOOK_PATH } from '../../contracts/webhook-paths';

/** Customer apps connected to the billing provider (admin). No response ever carries a stored secret. */
export function appRoutes(deps: AppDeps): Router {
  const { apps } = deps.repos;
  const { appCache, now } = deps;
  const graceMs = deps.config.webhooks.rotationGraceHours * 3600 * 1000;
  const webhookUrl = (slug: string) => `${deps.config.http.publicBaseUrl}${APP_WEBHOOK_PATH}?app=${encodeURIComponent(slug)}`;
  const present = (a: AppRecord) => ({
    slug: a._id,
    name: a.name,
    webhookUrl: webhookUrl(a._id),
    createdAt: a.createdAt,
    authorizationRotatedAt: a.rotatedAt,
    previousAuthorizationValidUntil: liveGraceDigests(a, now()).reduce<Date | null>(
      (latest, g) => (latest && latest > g.validUntil ? latest : g.validUntil),
      null,
    ),
  });
  const router = new Router();
  router.use('/v1/apps', authenticate(deps.config.jwt));
  router.use('/v1/apps', async (ctx, next) => {
    requireAdmin(ctx);
    await next();
  });
  router.use('/v1/apps', jsonBody(API_BODY_LIMIT));

  router.post('/v1/apps', async (ctx) => {
    const body = validate<{ slug: string; name: string }>(APP_BODY_SCHEMA, ctx.state.body);
    const created = await apps.create(body.slug, body.name, now());
    if (!created) {
      if (await apps.retired(body.slug)) {
        throw conflict(
          'app_slug_retired',
          `The slug "${body.slug}" belonged to a deleted app whose billing records are kept under it; choose another slug`,
        );
      }
      throw conflict('app_exists', `An app with slug "${body.slug}" already exists`);
    }
    ctx.status = 201;
    ctx.set('Location', `/v1/apps/${body.slug}`);
    // The only time the value is ever shown: paste it into the provider's webhook Authorization header field.
    ctx.body = { ...present(created.app), authorization: created.authorization };
  });

  router.get('/v1/apps', async (ctx) => {
    ctx.body = { apps: (await apps.list()).map(present) };
  });

  router.get('/v1/apps/:slug', async (ctx) => {
    const app = await apps.get(checkId(ctx.params.slug!, 'slug'));
    if (!app) throw notFound('unknown_app', `App "${ctx.params.slug}" does not exist`);
    ctx.body = present(app);
  });

  router.delete('/v1/apps/:slug', async (ctx) => {
    const slug = checkId(ctx.params.slug!, 'slug');
    if (!(await apps.remove(slug, now()))) throw notFound('unknown_app', `App "${slug}" does not exist`);
    appCache.forget(slug);
    ctx.status = 204;
  });

  router.post('/v1/apps/:slug/webhook-authorization/rotate', async (ctx) => {
    const slug = checkId(ctx.params.slug!, 'slug');
    const revoke = parseRevoke(ctx.query.revokePrevious);
    const rotated = await apps.rotate(slug, graceMs, now(), revoke);
    if (!rotated) throw notFound('unknown_app', `App "${slug}" does not exist`);
    appCache.forget(slug);
    ctx.body = {
      authorization: rotated.authorization,
      previousValidUntil: rotated.previousValidUntil,
      webhookUrl: webhookUrl(ctx.params.slug!),
    };
  });

  return router;
}

/** `?revokePrevious=true`: rotate with no grace for any earlier value (one that leaked). */
function parseRevoke(value: unknown): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw badRequest('invalid_query', 'revokePrevious must be true or false');
}
