import Router from '@koa/router';
import { SKILLS } from '../../skills/catalog';
import { missingEntitlement } from '../../skills/entitlements';
import type { SkillDefinition } from '../../skills/types';
import type { Entitlement } from '../../store/projects';
import type { AppDeps } from '../deps';
import { authenticate } from '../access/authenticate';
import { projectForCaller } from '../access/project-access';

/** The skill catalog as a project sees it: availability depends on the project's entitlements. */
export function skillCatalogRoutes(deps: AppDeps): Router {
  const repo = deps.repos.projects;
  const now = deps.now;
  const router = new Router();
  router.use('/v1/agents', authenticate(deps.config.jwt));

  router.get('/v1/agents/:project/skills', async (ctx) => {
    const project = await projectForCaller(ctx, repo, ctx.params.project!);
    const entitlements = await repo.effectiveEntitlements(project, now());
    ctx.body = {
      project: project._id,
      skills: SKILLS.map((skill) => presentSkill(skill, deps.config.skills.entitlements, entitlements)),
    };
  });

  return router;
}

function presentSkill(skill: SkillDefinition, required: Record<string, string>, held: Entitlement[]) {
  const missing = missingEntitlement(skill.name, required, held);
  return {
    name: skill.name,
    version: skill.version,
    title: skill.title,
    description: skill.description,
    inputSchema: skill.inputSchema,
    output: skill.output,
    retrievalScope: skill.retrievalScope,
    available: missing === null,
    unavailableReason: missing === null ? null : `The project is not entitled to "${missing}", which this skill requires`,
  };
}
