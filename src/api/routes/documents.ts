import Router from '@koa/router';
import { DOCUMENT_KINDS, type DocumentKind } from '../../skills/types';
import { cursorCodec, parseLimit } from '../http/cursor';
import { listPage } from '../http/pagination';
import type { AppDeps } from '../deps';
import { API_BODY_LIMIT } from '../http/limits';
import { jsonBody } from '../middleware/json-body';
import { authenticate } from '../access/authenticate';
import { badRequest } from '../http/problem';
import { projectForCaller } from '../access/project-access';
import { validate } from '../http/validation';
import { DOCUMENTS_BODY_SCHEMA } from '../../contracts/bodies';
import { screenDocuments } from '../../documents/screen';

const CURSOR = cursorCodec({ createdAt: 'string', externalId: 'string', kind: 'string' });

/** A project's data: bulk upsert (a bad document is rejected alone) and a paged listing. */
export function documentRoutes(deps: AppDeps): Router {
  const { projects, documents } = deps.repos;
  const now = deps.now;
  const router = new Router();
  router.use('/v1/projects/:project/documents', authenticate(deps.config.jwt));
  // Authenticate first, then read the body: an anonymous caller learns nothing from body errors.
  router.use('/v1/projects/:project/documents', jsonBody(API_BODY_LIMIT));

  router.post('/v1/projects/:project/documents', async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const body = validate<{ documents: unknown[] }>(DOCUMENTS_BODY_SCHEMA, ctx.state.body);
    const { accepted, rejected } = screenDocuments(body.documents, now());
    const { inserted, updated } = await documents.upsertMany(project._id, accepted, now());
    ctx.body = { inserted, updated, rejected };
  });

  router.get('/v1/projects/:project/documents', async (ctx) => {
    const project = await projectForCaller(ctx, projects, ctx.params.project!);
    const { kind, q } = ctx.query;
    if (kind !== undefined && (typeof kind !== 'string' || !(DOCUMENT_KINDS as readonly string[]).includes(kind))) {
      throw badRequest('invalid_input', `kind must be one of ${DOCUMENT_KINDS.join(', ')}`, [{ path: '/kind', message: 'unknown kind' }]);
    }
    if (q !== undefined && (typeof q !== 'string' || q.length > 200))
      throw badRequest('invalid_input', 'q must be a string of at most 200 characters');
    const limit = parseLimit(ctx.query.limit, 50, 200);
    const cursor = CURSOR.decode(ctx.query.cursor);
    const { items, nextCursor } = await listPage({
      limit,
      read: (rows) =>
        documents.list(project._id, { kind: kind as DocumentKind | undefined, text: q as string | undefined, limit: rows, after: cursor }),
      present: ({ project: _p, updatedAt: _u, versionKey: _v, fixVersionKey: _f, searchTerms: _s, ...doc }) => doc,
      cursorOf: (last) => CURSOR.encode({ createdAt: last.createdAt, externalId: last.externalId, kind: last.kind }),
      budgetBytes: Infinity,
    });
    ctx.body = { documents: items, nextCursor };
  });

  return router;
}
