/**
 * The Agent2Agent protocol (v0.3 JSON-RPC binding) as this service speaks it: the agent card of a project and
 * the mapping between invocations and A2A tasks. Pure.
 */
import type { SkillDefinition } from '../../skills/types';
import type { InvocationRecord } from '../../store/invocations';

export const A2A_PROTOCOL_VERSION = '0.3.0';

/** JSON-RPC and A2A error codes. */
export const A2A_ERRORS = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotSupported: -32003,
  unsupportedOperation: -32004,
} as const;

export type TaskState = 'submitted' | 'working' | 'completed' | 'failed' | 'canceled';

export interface A2aPart {
  kind: 'text' | 'data' | 'file';
  text?: string;
  data?: Record<string, unknown>;
  [member: string]: unknown;
}

export interface A2aMessage {
  kind?: 'message';
  messageId: string;
  role: 'user' | 'agent';
  parts: A2aPart[];
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
}

export interface A2aTask {
  kind: 'task';
  id: string;
  contextId: string;
  status: { state: TaskState; timestamp: string; message?: A2aMessage };
  artifacts: { artifactId: string; name: string; parts: A2aPart[] }[];
  metadata: Record<string, unknown>;
}

/** The card of a project's agent: one A2A skill per skill, invoked with a data part `{ skill, inputs }`. */
export function agentCard(
  project: { _id: string; name?: string },
  skills: readonly SkillDefinition[],
  endpointUrl: string,
  version: string,
): Record<string, unknown> {
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: `${project.name ?? project._id} project assistant`,
    description:
      `Drafts release notes, proposals and incident root-cause analyses from the ${project._id} project's own data (commits, pull requests, tickets, wins, incidents, runbooks…), every fact citing its source. ` +
      'Send a message with a data part {"skill": "<skill id>", "inputs": {…}} (the skill\'s input schema is in its description); the task\'s artifact is the Markdown document and its citations.',
    url: endpointUrl,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url: endpointUrl, transport: 'JSONRPC' }],
    version,
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: "The API's Bearer token, with the project in its projects claim",
      },
    },
    security: [{ bearer: [] }],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['text/markdown', 'application/json'],
    skills: skills.map((s) => ({
      id: s.name,
      name: s.title,
      description: `${s.description} Inputs (JSON Schema): ${JSON.stringify(s.inputSchema)}`,
      tags: ['documents', 'citations', ...s.retrievalScope],
      examples: [JSON.stringify({ skill: s.name, inputs: exampleInputs(s.name) })],
      inputModes: ['application/json'],
      outputModes: ['text/markdown', 'application/json'],
    })),
  };
}

function exampleInputs(skill: string): Record<string, unknown> {
  switch (skill) {
    case 'release_notes_composer':
      return { fromVersion: '1.2.1', toVersion: '2.0.0' };
    case 'proposal_writer':
      return { customerName: 'Northwind', industry: 'Retail', format: 'one-pager' };
    default:
      return { incidentId: 'INC-2025-014', severity: 'SEV-1' };
  }
}

/** Which skill a message asks for and with which inputs: a data part `{ skill, inputs }` (or `skill` in the message metadata). */
export function requestedSkill(message: A2aMessage): { skill: string; inputs: unknown } | null {
  for (const part of message.parts ?? []) {
    if (part?.kind !== 'data' || !part.data || typeof part.data !== 'object') continue;
    const data = part.data;
    if (typeof data.skill === 'string') return { skill: data.skill, inputs: data.inputs ?? {} };
    if (typeof message.metadata?.skill === 'string') return { skill: message.metadata.skill, inputs: data };
  }
  return null;
}

export function taskState(status: InvocationRecord['status']): TaskState {
  switch (status) {
    case 'queued':
      return 'submitted';
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'canceled';
    default:
      return 'working';
  }
}

/** The A2A task of an invocation (same id); a completed one carries the document as its artifact. */
export function taskOf(r: InvocationRecord): A2aTask {
  const state = taskState(r.status);
  const result = r.result as { markdown?: string; citations?: unknown[] } | null;
  return {
    kind: 'task',
    id: r._id,
    contextId: r._id,
    status: {
      state,
      timestamp: r.updatedAt.toISOString(),
      ...(r.error
        ? {
            message: {
              kind: 'message',
              messageId: `${r._id}-error`,
              role: 'agent',
              parts: [{ kind: 'text', text: r.error.message }],
              taskId: r._id,
              contextId: r._id,
            },
          }
        : {}),
    },
    artifacts:
      state === 'completed' && result?.markdown
        ? [
            {
              artifactId: `${r._id}-document`,
              name: `${r.skill} document`,
              parts: [
                { kind: 'text', text: result.markdown },
                { kind: 'data', data: { citations: result.citations ?? [] } },
              ],
            },
          ]
        : [],
    metadata: { skill: r.skill, invocationId: r._id, progress: r.progress },
  };
}
