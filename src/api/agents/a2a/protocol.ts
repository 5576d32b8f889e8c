/**
 * The Agent2Agent protocol as this service speaks it, in the 0.3 model (the 1.x wire shapes are translated from
 * it in wire.ts): the agent cards, which call a message makes, and the mapping between invocations and A2A
 * tasks. Pure.
 */
import { createHash } from 'node:crypto';
import type { SkillDefinition } from '../../../skills/types';
import type { InvocationRecord } from '../../../store/invocations';

export const A2A_PROTOCOL_VERSION = '0.3.0';

/** JSON-RPC and A2A error codes (A2A 1.0 §5.4; the same numbers in 0.3). */
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
  versionNotSupported: -32009,
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

export interface A2aArtifact {
  artifactId: string;
  name: string;
  parts: A2aPart[];
}

export interface A2aTask {
  kind: 'task';
  id: string;
  contextId: string;
  status: { state: TaskState; timestamp: string; message?: A2aMessage };
  artifacts: A2aArtifact[];
  metadata: Record<string, unknown>;
}

/** What a card says, in either protocol's shape (`agentCard` below; wire.ts's `card` for either version). */
export interface CardFacts {
  name: string;
  description: string;
  /** The JSON-RPC endpoint, both versions. */
  endpointUrl: string;
  version: string;
  skills: readonly SkillDefinition[];
}

const HOW_TO_CALL =
  'Send a message with a data part {"skill": "<skill id>", "inputs": {…}}, or a text part holding that JSON (the skill\'s input schema is in its description); the task\'s artifact is the Markdown document and its citations.';

/** The card of a project's agent: one A2A skill per skill. Its name and description are the project's. */
export function projectCardFacts(
  project: { _id: string; name?: string },
  skills: readonly SkillDefinition[],
  endpointUrl: string,
  version: string,
): CardFacts {
  return {
    name: `${project.name ?? project._id} project assistant`,
    description: `Drafts release notes, proposals and incident root-cause analyses from the ${project._id} project's own data (commits, pull requests, tickets, wins, incidents, runbooks…), every fact citing its source. ${HOW_TO_CALL}`,
    endpointUrl,
    version,
    skills,
  };
}

/**
 * The host's public card: the skills and how to reach them, and nothing of any tenant (no project, no name).
 * The endpoint serves the project the token names (or the request's tenant); the extended card is the project's.
 */
export function publicCardFacts(skills: readonly SkillDefinition[], endpointUrl: string, version: string): CardFacts {
  return {
    name: 'Project assistant',
    description: `Drafts release notes, proposals and incident root-cause analyses from a project's own data (commits, pull requests, tickets, wins, incidents, runbooks…), every fact citing its source. ${HOW_TO_CALL} A Bearer token names the project (its projects claim); with several, name one in the request's tenant (A2A 1.0) or use the project's own agent at /v1/agents/{project}/a2a. The authenticated extended card is the project's.`,
    endpointUrl,
    version,
    skills,
  };
}

export const BEARER_DESCRIPTION = "The API's Bearer token, with the project in its projects claim";
export const INPUT_MODES = ['application/json', 'text/plain'];
export const OUTPUT_MODES = ['text/markdown', 'application/json'];

/** An A2A skill per skill of the catalog, in the shape both versions share. */
export function cardSkills(skills: readonly SkillDefinition[]): Record<string, unknown>[] {
  return skills.map((s) => ({
    id: s.name,
    name: s.title,
    description: `${s.description} Inputs (JSON Schema): ${JSON.stringify(s.inputSchema)}`,
    tags: ['documents', 'citations', ...s.retrievalScope],
    examples: [JSON.stringify({ skill: s.name, inputs: exampleInputs(s.name) })],
    inputModes: INPUT_MODES,
    outputModes: OUTPUT_MODES,
  }));
}

/** The 0.3 card (A2A 0.3 §5.5); `supportedInterfaces` (1.0) is added beside it by the caller. */
export function agentCard(f: CardFacts): Record<string, unknown> {
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: f.name,
    description: f.description,
    url: f.endpointUrl,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [{ url: f.endpointUrl, transport: 'JSONRPC' }],
    version: f.version,
    capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false },
    supportsAuthenticatedExtendedCard: true,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: BEARER_DESCRIPTION } },
    security: [{ bearer: [] }],
    defaultInputModes: INPUT_MODES,
    defaultOutputModes: OUTPUT_MODES,
    skills: cardSkills(f.skills),
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

export type RequestedCall =
  | { kind: 'call'; skill: string; inputs: unknown }
  /** Text that is not a call: answered with a failed task that says how to call. */
  | { kind: 'text' }
  | { kind: 'none' };

/**
 * Which skill a message asks for and with which inputs: a data part `{ skill, inputs }` (or `skill` in the
 * message metadata), or a text part whose whole text is that JSON object (generic agents send text).
 */
export function requestedSkill(message: A2aMessage): RequestedCall {
  let text = false;
  for (const part of message.parts ?? []) {
    if (part?.kind === 'text' && typeof part.text === 'string') {
      text = true;
      const call = jsonCall(part.text);
      if (call) return { kind: 'call', ...call };
      continue;
    }
    if (part?.kind !== 'data' || !part.data || typeof part.data !== 'object') continue;
    const data = part.data;
    if (typeof data.skill === 'string') return { kind: 'call', skill: data.skill, inputs: data.inputs ?? {} };
    if (typeof message.metadata?.skill === 'string') return { kind: 'call', skill: message.metadata.skill, inputs: data };
  }
  return text ? { kind: 'text' } : { kind: 'none' };
}

function jsonCall(text: string): { skill: string; inputs: unknown } | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return null;
  }
  const call = value as { skill?: unknown; inputs?: unknown } | null;
  return call && typeof call === 'object' && typeof call.skill === 'string' ? { skill: call.skill, inputs: call.inputs ?? {} } : null;
}

/** What a failed task answers to text that is not a call: how to call, and every skill with its input schema. */
export function howToCall(skills: readonly SkillDefinition[]): string {
  return (
    'This agent runs one skill per message: send a text part holding the JSON {"skill": "<skill id>", "inputs": {…}} ' +
    '(or a data part with that object). Skills and their inputs (JSON Schema): ' +
    skills.map((s) => `${s.name} (${s.title}): ${JSON.stringify(s.inputSchema)}`).join('; ')
  );
}

/**
 * The failed task that answers text that is not a call. It is not an invocation: nothing runs and nothing is
 * kept (tasks/get does not find it); its id is derived from the messageId, so the same message gets the same answer.
 */
export function refusedTask(messageId: string, reason: string, now: Date): A2aTask {
  const id = `refused-${createHash('sha256').update(messageId).digest('base64url').slice(0, 22)}`;
  return {
    kind: 'task',
    id,
    contextId: id,
    status: {
      state: 'failed',
      timestamp: now.toISOString(),
      message: {
        kind: 'message',
        messageId: `${id}-error`,
        role: 'agent',
        parts: [{ kind: 'text', text: reason }],
        taskId: id,
        contextId: id,
      },
    },
    artifacts: [],
    metadata: {},
  };
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

/**
 * The A2A task of an invocation (same id); a completed one carries the document as its artifact. A completed
 * invocation whose model rewrite is still coming is `working`, with the deterministic draft as its artifact so far.
 */
export function taskOf(r: InvocationRecord): A2aTask {
  const pending = r.status === 'completed' && r.revision?.final === false;
  const state = pending ? 'working' : taskState(r.status);
  const result = r.result as { markdown?: string; citations?: unknown[] } | null;
  return {
    kind: 'task',
    id: r._id,
    contextId: r._id,
    status: {
      state,
      timestamp: r.updatedAt.toISOString(),
      ...(pending
        ? {
            message: {
              kind: 'message',
              messageId: `${r._id}-draft-${r.revision!.number}`,
              role: 'agent',
              parts: [
                { kind: 'text', text: "The deterministic draft is ready (the artifact); the model's rewrite follows as a new version." },
              ],
              taskId: r._id,
              contextId: r._id,
            },
          }
        : {}),
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
      r.status === 'completed' && result?.markdown
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
    metadata: { skill: r.skill, invocationId: r._id, progress: r.progress, ...(r.revision ? { revision: r.revision } : {}) },
  };
}
