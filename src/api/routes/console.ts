import Router from '@koa/router';
import { appScope } from '../../billing/subscriber-id';
import { isAdmin } from '../access/auth';
import { temporalUiFor } from '../access/billing-scope';
import type { AppDeps } from '../deps';
import { authenticate, principalOf } from '../access/authenticate';

/** What the operator console's pickers offer: the billing scopes and the projects this token may see. */
export function consoleRoutes(deps: AppDeps): Router {
  const { apps, projects } = deps.repos;
  const router = new Router();
  router.use('/v1/console', authenticate(deps.config.jwt));

  router.get('/v1/console/scopes', async (ctx) => {
    const p = principalOf(ctx);
    const all = isAdmin(p) || p.apps.includes('*');
    const connected = await apps.list();
    // A granted slug with no app behind it (deleted, never connected) is left out: its routes would answer 404.
    const visible = connected.filter((a) => all || p.apps.includes(a._id));
    ctx.body = {
      sub: p.sub,
      admin: isAdmin(p),
      scopes: [
        ...visible.map((a) => ({ scope: appScope(a._id), app: a._id, name: a.name })),
        ...(isAdmin(p) ? [{ scope: 'operator', app: null, name: 'Operator (own subscriptions)' }] : []),
      ],
      temporalUiUrl: temporalUiFor(deps.config.temporal, p),
    };
  });

  router.get('/v1/console/projects', async (ctx) => {
    const p = principalOf(ctx);
    const ids = isAdmin(p) || p.projects.includes('*') ? await projects.listIds() : [...p.projects].sort();
    ctx.body = { projects: ids.map((id) => ({ id })) };
  });

  return router;
}
