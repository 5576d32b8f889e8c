import type { Context } from 'koa';
import type { ProjectRecord, ProjectRepository } from '../../store/projects';
import { canUseProject } from './auth';
import { principalOf } from './authenticate';
import { forbidden, notFound } from '../http/problem';

/**
 * The project a request names, after checking the caller's rights first: a caller without rights gets 403
 * whether or not the project exists, so project names do not leak; a caller with rights gets 404 if unknown.
 */
export async function projectForCaller(ctx: Context, repo: ProjectRepository, project: string): Promise<ProjectRecord> {
  if (!canUseProject(principalOf(ctx), project)) throw forbidden(`Your token does not grant project "${project}"`);
  const record = await repo.getProject(project);
  if (!record) throw notFound('unknown_project', `Project "${project}" does not exist`);
  return record;
}
