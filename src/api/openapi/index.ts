/** The OpenAPI document of every route: each resource's part, in the order a reader meets them. */
import type { OpenApiPart } from './common';
import { openApiDocument } from './document';
import { agentPart } from './agents';
import { appPart } from './apps';
import { billingPart } from './billing';
import { billingWebhookPart } from './billing-webhooks';
import { consolePart } from './console';
import { documentPart } from './documents';
import { eventLogPart } from './event-log';
import { healthPart } from './health';
import { invocationPart } from './invocations';
import { outboundPart } from './outbound';
import { projectPart } from './projects';
import { skillCatalogPart } from './skills';
import { outboundWebhooks } from './webhooks';

export const OPENAPI_PARTS: OpenApiPart[] = [
  healthPart,
  projectPart,
  documentPart,
  skillCatalogPart,
  invocationPart,
  agentPart,
  appPart,
  billingWebhookPart,
  billingPart,
  eventLogPart,
  consolePart,
  outboundPart,
];

/** The document /openapi.json serves, with `serverUrl` (PUBLIC_BASE_URL) as its server. */
export function buildOpenApiDocument(serverUrl: string): Record<string, unknown> {
  return openApiDocument(OPENAPI_PARTS, serverUrl, outboundWebhooks);
}
