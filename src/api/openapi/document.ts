import type { Paths } from './common';

/** The API's version, as the OpenAPI document and the MCP server announce it. */
export const API_VERSION = '0.1.0';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * A stable operationId for each operation that has none: the method and the path's words, parameters as
 * `By<Name>` (`GET /v1/billing/customers/{id}/timeline` → `getBillingCustomersByIdTimeline`), so generated
 * clients get method names without a hand-kept list.
 */
export function withOperationIds(paths: Record<string, Record<string, Record<string, unknown>>>): Record<string, Record<string, Record<string, unknown>>> {
  const words = (path: string) =>
    path
      .split(/[/.?=&-]+/)
      .filter((w) => w !== '' && w !== 'v1')
      .map((w) => (/^\{.+\}$/.test(w) ? `By${cap(w.slice(1, -1))}` : cap(w.replace(/[^A-Za-z0-9]/g, ''))))
      .join('');
  const out: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const [path, ops] of Object.entries(paths)) {
    out[path] = {};
    for (const [method, op] of Object.entries(ops)) {
      out[path][method] = (METHODS as readonly string[]).includes(method) && op.operationId === undefined ? { operationId: `${method}${words(path)}`, ...op } : op;
    }
  }
  return out;
}
const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** Assembles the OpenAPI 3.1 document from each resource's paths and the schemas they refer to. */
export function openApiDocument(paths: Paths[], serverUrl: string, schemas: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Skills & billing service',
      version: API_VERSION,
      description: 'Project assistant skills (durable invocations clients poll) and billing-provider webhooks, on Temporal.',
    },
    servers: [{ url: serverUrl }],
    paths: withOperationIds(Object.assign({}, ...paths)),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        webhookAuthorization: { type: 'apiKey', in: 'header', name: 'Authorization' },
      },
      schemas: {
        ...schemas,
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail', 'code'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            code: { type: 'string' },
            errors: {
              type: 'array',
              items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
            },
          },
        },
      },
    },
  };
}
