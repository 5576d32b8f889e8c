import type { Paths } from './common';

/** Assembles the OpenAPI 3.1 document from each resource's paths. */
export function openApiDocument(paths: Paths[], serverUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Skills & billing service',
      version: '0.1.0',
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
