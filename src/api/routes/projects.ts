import Router from '@koa/router';
import { canUseProject } from '../access/auth';
import type { AppDeps } from '../deps';
import { checkId } from '../http/ids';
import { API_BODY_LIMIT } from '../http/limits';
import { jsonBody } from '../middleware/json-body';
import { authenticate, principalOf, requireAdmin } from '../access/authenticate';
import { forbidden, notFound } from '../http/problem';
import { validate } from '../http/validation';
import { ORG_BODY_SCHEMA, PROJECT_SETTINGS_BODY_SCHEMA } from '../../contracts/bodies';
import type { ProjectSettings } from '../../invocations/project-settings';
import { DEFAULT_LISTING } from '../../skills/release-notes/listing';

/** Orgs and projects: admins create them; project members read their project. */
export function projectRoutes(deps: AppDeps): Router {
  const repo = deps.repos.projects;
  const now = deps.now;
  const router = new Router();
  router.use(['/v1/orgs', '/v1/projects'], authenticate(deps.config.jwt));
  // Authenticate first, then read the body: an anonymous caller learns nothing from body errors.
  router.use(['/v1/orgs', '/v1/projects'], jsonBody(API_BODY_LIMIT));

  router.put('/v1/orgs/:org', async (ctx) => {
    requireAdmin(ctx);
    const id = checkId(ctx.params.org!, 'org');
    const body = validate<{ name: string; ownerEmail: string }>(ORG_BODY_SCHEMA, ctx.state.body);
    const { org, created } = await repo.upsertOrg(id, body, now());
    ctx.status = created ? 201 : 200;
    ctx.body = presentOrg(org);
  });

  router.get('/v1/orgs/:org', async (ctx) => {
    requireAdmin(ctx);
    const org = await repo.getOrg(ctx.params.org!);
    if (!org) throw notFound('unknown_org', `Org "${ctx.params.org}" does not exist`);
    ctx.body = presentOrg(org);
  });

  router.put('/v1/projects/:project', async (ctx) => {
    requireAdmin(ctx);
    const id = checkId(ctx.params.project!, 'project');
    const body = validate<{ name: string; org: string } & ProjectSettings>(PROJECT_SETTINGS_BODY_SCHEMA, ctx.state.body);
    if (!(await repo.getOrg(body.org))) {
      throw notFound('unknown_org', `Org "${body.org}" does not exist; create it with PUT /v1/orgs/${body.org} first`);
    }
    const { project, created } = await repo.upsertProject(id, body, now());
    ctx.status = created ? 201 : 200;
    ctx.body = presentProject(project);
  });

  router.get('/v1/projects/:project', async (ctx) => {
    const principal = principalOf(ctx);
    const id = ctx.params.project!;
    if (!canUseProject(principal, id)) throw forbidden(`Your token does not grant project "${id}"`);
    const project = await repo.getProject(id);
    if (!project) throw notFound('unknown_project', `Project "${id}" does not exist`);
    ctx.body = { ...presentProject(project), effectiveEntitlements: await repo.effectiveEntitlements(project, now()) };
  });

  return router;
}

function presentOrg(o: { _id: string; name: string; ownerEmail: string; entitlements: unknown[]; createdAt: Date; updatedAt: Date }) {
  return {
    id: o._id,
    name: o.name,
    ownerEmail: o.ownerEmail,
    entitlements: o.entitlements,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

function presentProject(
  p: { _id: string; name: string; org: string; entitlements: unknown[]; createdAt: Date; updatedAt: Date } & ProjectSettings,
) {
  return {
    id: p._id,
    name: p.name,
    org: p.org,
    entitlements: p.entitlements,
    // The settings in effect: the project's, else the defaults.
    releaseNotes: { listing: { ...DEFAULT_LISTING, ...p.releaseNotes?.listing } },
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
