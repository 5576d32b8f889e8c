import Router from '@koa/router';
import type { ProjectDocument } from '../../skills/documents';
import { DOCUMENT_KIND_SCHEMAS, OWN_TIME_FIELD, optionalTextFields } from '../../skills/document-schema';
import { DOCUMENT_KINDS, type DocumentKind } from '../../skills/types';
import { DocumentRepository } from '../../store/documents';
import { ProjectRepository } from '../../store/projects';
import { decodeCursor, encodeCursor, parseLimit } from '../cursor';
import type { AppDeps } from '../deps';
import { API_BODY_LIMIT } from '../limits';
import { jsonBody } from '../middleware/json-body';
import { authenticate } from '../middleware/authenticate';
import { badRequest, type ProblemFieldError } from '../problem';
import { projectForCaller } from '../project-access';
import { check, validate } from '../validation';

export const MAX_DOCUMENTS_PER_REQUEST = 500;

export const DOCUMENTS_BODY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['documents'],
  properties: { documents: { type: 'array', minItems: 1, maxItems: MAX_DOCUMENTS_PER_REQUEST, items: { type: 'object' } } },
} as const;

const OPTIONAL_TEXT = new Map(DOCUMENT_KINDS.map((k) => [k, optionalTextFields(k)]));

/** The document as clients mean it: optional text fields sent as "" are absent. */
function withoutEmptyOptionals(doc: Record<string, unknown>, kind: DocumentKind): Record<string, unknown> {
  const empty = OPTIONAL_TEXT.get(kind)!.filter((f) => doc[f] === '');
  if (empty.length === 0) return doc;
  const copy = { ...doc };
  for (const f of empty) delete copy[f];
  return copy;
}

/**
 * Checks each document against its kind's schema: the bad ones are rejected alone, with reasons (a misspelt
 * field is named). Optional text fields sent as "" count as absent; a missing `createdAt` becomes the
 * document's own time (OWN_TIME_FIELD) or `now`, the upload time. The same (kind, externalId) twice: the later
 * one wins, as two requests would. Shared by the API and the CLI loaders.
 */
export function screenDocuments(documents: readonly unknown[], now: Date): { accepted: ProjectDocument[]; rejected: { index: number; errors: ProblemFieldError[] }[] } {
  const accepted: ProjectDocument[] = [];
  const rejected: { index: number; errors: ProblemFieldError[] }[] = [];
  const seen = new Map<string, number>();
  documents.forEach((raw, index) => {
    const kind = (raw as { kind?: unknown } | null)?.kind;
    if (typeof kind !== 'string' || !(DOCUMENT_KINDS as readonly string[]).includes(kind) || typeof raw !== 'object' || Array.isArray(raw)) {
      rejected.push({ index, errors: [{ path: '/kind', message: `must be one of ${DOCUMENT_KINDS.join(', ')}` }] });
      return;
    }
    const doc = withoutEmptyOptionals(raw as Record<string, unknown>, kind as DocumentKind);
    const errors = check(DOCUMENT_KIND_SCHEMAS[kind as DocumentKind], doc);
    if (errors.length > 0) {
      rejected.push({ index, errors });
      return;
    }
    const own = OWN_TIME_FIELD[kind as DocumentKind];
    const createdAt = doc.createdAt ?? (own && doc[own]) ?? now.toISOString();
    const typed = { ...doc, createdAt } as ProjectDocument;
    const key = `${typed.kind}\u0000${typed.externalId}`;
    const previous = seen.get(key);
    if (previous !== undefined) accepted[previous] = typed;
    else {
      seen.set(key, accepted.length);
      accepted.push(typed);
    }
  });
  return { accepted, rejected };
}

/** A project's data: bulk upsert (a bad document is rejected alone) and a paged listing. */
export function documentRoutes(deps: AppDeps): Router {
  const projects = new ProjectRepository(deps.db);
  const documents = new DocumentRepository(deps.db);
  const now = deps.now ?? (() => new Date());
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
    if (q !== undefined && (typeof q !== 'string' || q.length > 200)) throw badRequest('invalid_input', 'q must be a string of at most 200 characters');
    const limit = parseLimit(ctx.query.limit, 50, 200);
    const cursor = decodeCursor(typeof ctx.query.cursor === 'string' ? ctx.query.cursor : undefined, ['createdAt', 'externalId', 'kind'] as const);
    const rows = await documents.list(project._id, { kind: kind as DocumentKind | undefined, text: q as string | undefined, limit: limit + 1, after: cursor });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    ctx.body = {
      documents: page.map(({ project: _p, updatedAt: _u, versionKey: _v, fixVersionKey: _f, ...doc }) => doc),
      nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, externalId: last.externalId, kind: last.kind }) : null,
    };
  });

  return router;
}
