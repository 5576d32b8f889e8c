import { problemRef, type OpenApiPart, type Operation } from './common';
import { problemSchemas } from './problem';
import { API_VERSION } from '../http/api-version';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type PathMap = Record<string, Record<string, Operation>>;

/** Every tag an operation uses, in the order a reader meets them. */
const TAGS = [
  { name: 'operations', description: 'Health, readiness, metrics and this document' },
  { name: 'projects', description: 'Orgs, projects and the documents skills retrieve from' },
  { name: 'skills', description: 'The skill catalog, invocations (durable workflows) and their results' },
  { name: 'agents', description: 'The skills over MCP and A2A' },
  { name: 'apps', description: 'Customer apps connected to the billing provider (admin)' },
  { name: 'billing webhooks', description: "The billing provider's receivers" },
  { name: 'billing', description: 'The billing dashboard: metrics, customers, timelines, work lists, dead letters' },
  { name: 'console', description: 'The operator console page and what its pickers read' },
  {
    name: 'outbound webhooks (private preview)',
    description: "Endpoints that receive an app's billing events, their delivery log and redelivery",
  },
  { name: 'outbound webhook deliveries', description: 'What the service sends to those endpoints (the webhooks section)' },
];

/** Errors any operation can answer, whatever it describes. */
const DEFAULT_ERROR = problemRef(
  'An unexpected error (500 internal_error; logged, no internals in the body) or the data store unreachable (503 store_unavailable, with Retry-After)',
);

/**
 * A stable operationId for each operation that has none: the method and the path's words, parameters as
 * `By<Name>` (`GET /v1/billing/customers/{id}/timeline` → `getBillingCustomersByIdTimeline`), so generated
 * clients get method names without a hand-kept list. Also: an operation whose summary says all there is to say
 * has it as its description too, and every operation answers the common 5xx problems as `default`.
 */
export function withOperationIds(paths: PathMap): PathMap {
  const words = (path: string) =>
    path
      .split(/[/.?=&-]+/)
      .filter((w) => w !== '' && w !== 'v1')
      .map((w) => (/^\{.+\}$/.test(w) ? `By${cap(w.slice(1, -1))}` : cap(w.replace(/[^A-Za-z0-9]/g, ''))))
      .join('');
  const out: PathMap = {};
  for (const [path, ops] of Object.entries(paths)) {
    out[path] = {};
    for (const [method, op] of Object.entries(ops)) {
      if (!(METHODS as readonly string[]).includes(method)) {
        out[path][method] = op;
        continue;
      }
      out[path][method] = {
        operationId: `${method}${words(path)}`,
        ...op,
        description: op.description ?? op.summary,
        responses: { ...(op.responses as object), default: DEFAULT_ERROR },
      };
    }
  }
  return out;
}
const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** Assembles the OpenAPI 3.1 document from each resource's paths and schemas, and the outbound `webhooks`. */
export function openApiDocument(parts: OpenApiPart[], serverUrl: string, webhooks: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Skills & billing service',
      version: API_VERSION,
      description: 'Project assistant skills (durable invocations clients poll) and billing-provider webhooks, on Temporal.',
      contact: { name: 'Skills & billing service maintainers' },
      license: { name: 'UNLICENSED', identifier: 'LicenseRef-UNLICENSED' },
    },
    servers: [{ url: serverUrl, description: 'This deployment (PUBLIC_BASE_URL)' }],
    tags: TAGS,
    paths: withOperationIds(Object.assign({}, ...parts.map((p) => p.paths)) as PathMap),
    webhooks,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        webhookAuthorization: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: "The value generated for the app (or OPERATOR_WEBHOOK_AUTHORIZATION), as the provider's Authorization header",
        },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when set' },
      },
      schemas: Object.assign({}, problemSchemas, ...parts.map((p) => p.schemas ?? {})),
    },
  };
}
