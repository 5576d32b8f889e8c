/**
 * Checks real HTTP answers against the OpenAPI document the API serves: the operation (method + path template),
 * the status (documented, or a 5xx under `default`), the media type, and a JSON body against the response's
 * schema with ajv (OpenAPI 3.1 schemas are JSON Schema 2020-12). The harness runs every answer of the
 * integration tests through it; it also records which operations answered a 2xx, so a suite can assert that
 * none went unchecked.
 *
 * Strictness: the document leaves response objects open (no `additionalProperties: false`), so clients keep
 * working when a member is added. The checker validates against a stricter copy in which every object schema
 * that lists `properties` and says nothing about other members gets `unevaluatedProperties: false` — so a
 * member the code sends but the document does not list fails the check. `unevaluatedProperties` rather than
 * `additionalProperties`, because it also sees members evaluated through `$ref`, `anyOf` and `oneOf` (a nullable
 * `$ref`, the document kinds). Schemas that say `additionalProperties: true` (protocol messages, provider events,
 * free-form inputs) stay open on purpose.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '../../src/api/openapi';

type Json = Record<string, unknown>;
type Responses = Record<string, { content?: Record<string, { schema?: Json }> }>;
type Operation = { operationId: string; responses: Responses; requestBody?: unknown };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const BASE = 'https://openapi.test/schemas/';

/** A deep copy of a schema with `unevaluatedProperties: false` wherever members are listed and others not ruled on, and refs made absolute. */
export function strictSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    // Values, not schemas: copied as they are.
    if (['const', 'enum', 'default', 'examples', 'example', 'discriminator'].includes(key)) out[key] = value;
    else if (key === '$ref' && typeof value === 'string') out[key] = value.replace('#/components/schemas/', BASE);
    else if (key === 'properties' || key === 'patternProperties' || key === '$defs') {
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, schema]) => [name, strictSchema(schema)]));
    } else out[key] = strictSchema(value);
  }
  if ('properties' in out && !('additionalProperties' in out) && !('unevaluatedProperties' in out)) out.unevaluatedProperties = false;
  return out;
}

const mediaType = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();
const isJson = (media: string) => media === 'application/json' || media.endsWith('+json');

export interface CheckedResponse {
  method: string;
  /** The request path, query string included. */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
  text: string;
}

export class OpenApiValidator {
  readonly document: Json;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; pattern: RegExp; literals: number }[];
  /** `METHOD template` → the statuses it answered, as checked. */
  readonly seen = new Map<string, Set<number>>();

  constructor(document: Json = buildOpenApiDocument('http://127.0.0.1')) {
    this.document = document;
    addFormats(this.ajv);
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    for (const [name, schema] of Object.entries(schemas)) this.ajv.addSchema({ ...(strictSchema(schema) as Json), $id: `${BASE}${name}` });
    this.templates = Object.keys(this.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(
          `^${template
            .split(/\{[^}]+\}/)
            .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]+')}$`,
        ),
        literals: template.split('/').filter((s) => s !== '' && !s.startsWith('{')).length,
      }))
      // A literal segment wins over a parameter (the router's order for these paths).
      .sort((a, b) => b.literals - a.literals);
  }

  private get paths(): Record<string, Record<string, Operation>> {
    return this.document.paths as Record<string, Record<string, Operation>>;
  }

  /** Every operation of the document, as `METHOD template`. */
  operations(): string[] {
    return Object.entries(this.paths).flatMap(([template, item]) =>
      METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${template}`),
    );
  }

  /** Operations that never answered a 2xx that was checked. */
  unchecked(): string[] {
    return this.operations().filter((op) => ![...(this.seen.get(op) ?? [])].some((s) => s >= 200 && s < 300));
  }

  /** The path template a concrete path is served under, or null when no documented path matches. */
  templateOf(path: string): string | null {
    // As fetch sends it: dot segments resolved (`/dashboard/assets/..` is `/dashboard`).
    const pathname = new URL(path, 'http://api.test').pathname;
    return this.templates.find((t) => t.pattern.test(pathname))?.template ?? null;
  }

  /**
   * What is wrong with a response, as readable lines (empty: it matches the document). A path the document does not
   * have, or a method it does not list for the path (the 404 and 405 answers for those), is not checked.
   */
  problems(r: CheckedResponse): string[] {
    const template = this.templateOf(r.path);
    const method = r.method.toLowerCase();
    if (template === null) return [];
    const op = this.paths[template]![method];
    if (!op) return [];
    const name = `${r.method.toUpperCase()} ${template}`;
    const where = `${name} → ${r.status}`;
    // A 4xx must be listed; any operation may answer a 5xx (its `default`).
    const status = [String(r.status), `${String(r.status)[0]}XX`, ...(r.status >= 500 ? ['default'] : [])].find((s) => s in op.responses);
    const documented = status === undefined ? undefined : op.responses[status];
    if (status === undefined || !documented)
      return [`${where}: status not documented (documented: ${Object.keys(op.responses).join(', ')})`];
    if (!this.seen.has(name)) this.seen.set(name, new Set());
    this.seen.get(name)!.add(r.status);
    const media = mediaType(r.contentType);
    if (!documented.content) return r.text === '' ? [] : [`${where}: a body (${media || 'no content type'}) where the document has none`];
    const entry = documented.content[media];
    if (!entry) return [`${where}: content type "${media}" not documented (documented: ${Object.keys(documented.content).join(', ')})`];
    if (!isJson(media) || !entry.schema) return [];
    if (r.body === undefined) return [`${where}: ${media} body is not JSON: ${r.text.slice(0, 200)}`];
    const validate = this.validator(template, method, status, media, entry.schema);
    if (validate(r.body)) return [];
    return (validate.errors ?? []).map((e) => {
      const extra =
        (e.params as { unevaluatedProperty?: string; additionalProperty?: string }).unevaluatedProperty ??
        (e.params as { additionalProperty?: string }).additionalProperty;
      return `${where}: ${e.instancePath || '(body)'} ${e.message}${extra ? ` "${extra}" (not in the document)` : ''} [${e.schemaPath}]`;
    });
  }

  /** What is wrong with an outbound webhook body (the document's `webhooks` section). */
  webhookProblems(name: string, body: unknown): string[] {
    const op = (this.document.webhooks as Record<string, { post: Operation }>)[name]?.post;
    if (!op) return [`no webhook ${name} in the document`];
    const schema = (op.requestBody as { content: Record<string, { schema: Json }> }).content['application/json']!.schema;
    const validate = this.validator(`webhook:${name}`, 'post', 'request', 'application/json', schema);
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `webhook ${name}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  private validator(template: string, method: string, status: string, media: string, schema: Json): ValidateFunction {
    const key = `${method} ${template} ${status} ${media}`;
    let fn = this.compiled.get(key);
    if (!fn) {
      fn = this.ajv.compile(strictSchema(schema) as Json);
      this.compiled.set(key, fn);
    }
    return fn;
  }
}

let shared: OpenApiValidator | null = null;
/** One validator per test process (compiling the document's schemas takes a moment). */
export function openApiValidator(): OpenApiValidator {
  return (shared ??= new OpenApiValidator());
}

/** Throws, naming every mismatch, when a response does not match the document. */
export function assertMatchesDocument(r: CheckedResponse): void {
  const problems = openApiValidator().problems(r);
  if (problems.length > 0) {
    throw new Error(
      `The answer does not match the OpenAPI document (src/api/openapi):\n  ${problems.join('\n  ')}\nbody: ${r.text.slice(0, 1000)}`,
    );
  }
}
