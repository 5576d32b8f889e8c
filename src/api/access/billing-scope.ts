import type { Context } from 'koa';
import { appScope, type BillingScope } from '../../billing/subscriber-id';
import type { Config } from '../../config/config';
import type { AppRepository } from '../../store/apps';
import { canReadApp, isAdmin, type Principal } from './auth';
import { principalOf } from './authenticate';
import { badRequest, forbidden, notFound } from '../http/problem';

/**
 * The billing scope a dashboard request reads: `?app={slug}` for a token with that app (or an admin), none for
 * the operator scope (admins only). A token that is not an admin's and names no app is told the parameter is
 * missing: it can only have meant an app.
 */
export async function requestedScope(ctx: Context, apps: AppRepository): Promise<BillingScope> {
  const principal = principalOf(ctx);
  const app = ctx.query.app;
  if (app === undefined) {
    if (!isAdmin(principal))
      throw badRequest(
        'missing_app',
        'The app query parameter is required: ?app={slug} (without it, the operator scope, for administrators only)',
      );
    return 'operator';
  }
  if (typeof app !== 'string' || app === '') throw badRequest('invalid_input', 'app must be a single app slug');
  if (!canReadApp(principal, app)) throw forbidden(`Your token does not grant app "${app}"`);
  if (!(await apps.get(app))) throw notFound('unknown_app', `App "${app}" does not exist`);
  return appScope(app);
}

/**
 * A link to a workflow in the Temporal UI, when its address is configured and the caller is an admin. The UI is
 * the operator's: it shows every tenant's workflows, and its address names an internal host, so app and project
 * tokens get null.
 */
export function workflowLinker(temporal: Config['temporal'], caller: Principal): (workflowId: string) => string | null {
  const ui = temporalUiFor(temporal, caller);
  return (workflowId) =>
    ui ? `${ui}/namespaces/${encodeURIComponent(temporal.namespace)}/workflows/${encodeURIComponent(workflowId)}` : null;
}

/** The Temporal UI's address for admins; null for everyone else (and when none is configured). */
export function temporalUiFor(temporal: Config['temporal'], caller: Principal): string | null {
  return isAdmin(caller) ? temporal.uiUrl : null;
}
