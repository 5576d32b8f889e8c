import type { Paths } from './common';

/** The API's version, as the OpenAPI document and the MCP server announce it. */
export const API_VERSION = '0.1.0';

/** Assembles the OpenAPI 3.1 document from each resource's paths. */
export function openApiDocument(paths: Paths[], serverUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Skills & billing service',
      version: API_VERSION,
      description: 'Project assistant skills (durable invocations clients poll) and billing-provider webhooks, on Temporal.',
    },
    servers: [{ url: serverUrl }],
    paths: Object.assign({}, ...paths),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        webhookAuthorization: { type: 'apiKey', in: 'header', name: 'Authorization' },
      },
      schemas: {
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
