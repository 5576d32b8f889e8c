/**
 * The two versions of the A2A JSON-RPC binding this service serves on the same endpoints: 0.3 (what a request
 * without `A2A-Version` speaks, A2A 1.0 §3.6.2) and 1.0 (`A2A-Version: 1.0`). Each maps its method names to the
 * service's operations and renders the 0.3 model of protocol.ts in its own shapes: 1.0 has no `kind`
 * discriminators (parts and events are told apart by their members), SCREAMING_SNAKE_CASE states and roles,
 * `supportedInterfaces` on the card and google.rpc.ErrorInfo in error data. Pure.
 */
import {
  A2A_ERRORS,
  BEARER_DESCRIPTION,
  INPUT_MODES,
  OUTPUT_MODES,
  agentCard,
  cardSkills,
  type A2aArtifact,
  type A2aMessage,
  type A2aPart,
  type A2aTask,
  type CardFacts,
} from './protocol';

export type A2aVersion = '0.3' | '1.0';

/** What a method asks of the service, whatever its version calls it. */
export type Operation = 'send' | 'stream' | 'get' | 'list' | 'cancel' | 'subscribe' | 'extendedCard' | 'push';

/**
 * The version a request asks for (`A2A-Version`, header or query parameter): Major.Minor, a patch ignored; empty
 * is 0.3. Null for any other version (VersionNotSupportedError).
 */
export function requestedVersion(value: string): A2aVersion | null {
  const v = value.trim();
  if (v === '') return '0.3';
  const m = /^(\d{1,6})\.(\d{1,6})(?:\.\d{1,6})?$/.exec(v);
  if (!m) return null;
  const majorMinor = `${Number(m[1])}.${Number(m[2])}`;
  return majorMinor === '1.0' || majorMinor === '0.3' ? majorMinor : null;
}

const METHODS: Record<A2aVersion, Readonly<Record<string, Operation>>> = {
  '0.3': {
    'message/send': 'send',
    'message/stream': 'stream',
    'tasks/get': 'get',
    'tasks/cancel': 'cancel',
    'tasks/resubscribe': 'subscribe',
    'agent/getAuthenticatedExtendedCard': 'extendedCard',
    'tasks/pushNotificationConfig/set': 'push',
    'tasks/pushNotificationConfig/get': 'push',
    'tasks/pushNotificationConfig/list': 'push',
    'tasks/pushNotificationConfig/delete': 'push',
  },
  '1.0': {
    SendMessage: 'send',
    SendStreamingMessage: 'stream',
    GetTask: 'get',
    ListTasks: 'list',
    CancelTask: 'cancel',
    SubscribeToTask: 'subscribe',
    GetExtendedAgentCard: 'extendedCard',
    CreateTaskPushNotificationConfig: 'push',
    GetTaskPushNotificationConfig: 'push',
    ListTaskPushNotificationConfigs: 'push',
    DeleteTaskPushNotificationConfig: 'push',
  },
};

export function operationOf(version: A2aVersion, method: string): Operation | undefined {
  return Object.hasOwn(METHODS[version], method) ? METHODS[version][method] : undefined;
}

/** The version that names `method`, when the request's version does not (to say which header to send). */
export function versionNaming(method: string): A2aVersion | undefined {
  return (['1.0', '0.3'] as const).find((v) => Object.hasOwn(METHODS[v], method));
}

/** The message of a send, in the 0.3 model; undefined when there is none. */
export function messageOf(version: A2aVersion, params: Record<string, unknown>): unknown {
  const message = params.message as Record<string, unknown> | undefined;
  if (version === '0.3' || !message || typeof message !== 'object' || !Array.isArray(message.parts)) return message;
  return {
    ...message,
    role: message.role === 'ROLE_AGENT' ? 'agent' : 'user',
    parts: (message.parts as unknown[]).map(partFromV1),
  } satisfies Partial<A2aMessage>;
}

/** A 1.0 part (one of text, data, url, raw) as a 0.3 part; a url, raw or unreadable one is a file, which no skill reads. */
function partFromV1(part: unknown): A2aPart {
  const p = (part && typeof part === 'object' ? part : {}) as Record<string, unknown>;
  if (typeof p.text === 'string') return { kind: 'text', text: p.text };
  if (p.data && typeof p.data === 'object' && !Array.isArray(p.data)) return { kind: 'data', data: p.data as Record<string, unknown> };
  return { kind: 'file' };
}

/** Whether a send waits for the end: 0.3 when `configuration.blocking` is true, 1.0 unless `returnImmediately`. */
export function blocking(version: A2aVersion, params: Record<string, unknown>): boolean {
  const configuration = (params.configuration ?? {}) as { blocking?: unknown; returnImmediately?: unknown };
  return version === '0.3' ? configuration.blocking === true : configuration.returnImmediately !== true;
}

const V1_STATE = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
} as const;

function partV1(p: A2aPart): Record<string, unknown> {
  if (p.kind === 'text') return { text: p.text ?? '', mediaType: 'text/markdown' };
  return { data: p.data ?? {}, mediaType: 'application/json' };
}

function messageV1(m: A2aMessage): Record<string, unknown> {
  return {
    messageId: m.messageId,
    role: m.role === 'agent' ? 'ROLE_AGENT' : 'ROLE_USER',
    parts: m.parts.map(partV1),
    ...(m.taskId ? { taskId: m.taskId } : {}),
    ...(m.contextId ? { contextId: m.contextId } : {}),
  };
}

const statusV1 = (s: A2aTask['status']) => ({
  state: V1_STATE[s.state],
  timestamp: s.timestamp,
  ...(s.message ? { message: messageV1(s.message) } : {}),
});

const artifactV1 = (a: A2aArtifact) => ({ artifactId: a.artifactId, name: a.name, parts: a.parts.map(partV1) });

function taskV1(t: A2aTask): Record<string, unknown> {
  return { id: t.id, contextId: t.contextId, status: statusV1(t.status), artifacts: t.artifacts.map(artifactV1), metadata: t.metadata };
}

/** The answers and stream events of one version. */
export interface Rendering {
  /** The result of a send (1.0 wraps it: SendMessageResponse). */
  sent(task: A2aTask): unknown;
  /** The result of get and cancel. */
  task(task: A2aTask): unknown;
  /** Stream events (1.0: StreamResponse members; 0.3: `kind`). */
  taskEvent(task: A2aTask): unknown;
  statusEvent(task: A2aTask, final: boolean): unknown;
  artifactEvent(task: A2aTask, artifact: A2aArtifact): unknown;
  /** The error object's `data` (1.0: google.rpc.ErrorInfo), or undefined. */
  errorData(code: number): unknown;
}

const V03: Rendering = {
  sent: (t) => t,
  task: (t) => t,
  taskEvent: (t) => t,
  statusEvent: (t, final) => ({ kind: 'status-update', taskId: t.id, contextId: t.contextId, status: t.status, final }),
  artifactEvent: (t, artifact) => ({ kind: 'artifact-update', taskId: t.id, contextId: t.contextId, artifact, lastChunk: true }),
  errorData: () => undefined,
};

const REASONS: Partial<Record<number, string>> = {
  [A2A_ERRORS.taskNotFound]: 'TASK_NOT_FOUND',
  [A2A_ERRORS.taskNotCancelable]: 'TASK_NOT_CANCELABLE',
  [A2A_ERRORS.pushNotSupported]: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  [A2A_ERRORS.unsupportedOperation]: 'UNSUPPORTED_OPERATION',
  [A2A_ERRORS.versionNotSupported]: 'VERSION_NOT_SUPPORTED',
};

const V1: Rendering = {
  sent: (t) => ({ task: taskV1(t) }),
  task: taskV1,
  taskEvent: (t) => ({ task: taskV1(t) }),
  // 1.0 has no `final`: the stream ends after the terminal status.
  statusEvent: (t) => ({ statusUpdate: { taskId: t.id, contextId: t.contextId, status: statusV1(t.status) } }),
  artifactEvent: (t, a) => ({ artifactUpdate: { taskId: t.id, contextId: t.contextId, artifact: artifactV1(a), lastChunk: true } }),
  errorData: (code) => {
    const reason = REASONS[code];
    return reason ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }] : undefined;
  },
};

export const rendering = (version: A2aVersion): Rendering => (version === '1.0' ? V1 : V03);

/** The interfaces of a card: the one endpoint, 1.0 first (the preferred), then 0.3. */
function interfaces(url: string) {
  return [
    { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
  ];
}

/**
 * The card a request gets: the 1.0 card (A2A 1.0 §4.4.1) when it asks for 1.0, else the 0.3 card with the 1.0
 * `supportedInterfaces` beside it (the two field sets are disjoint), which 0.3 clients and the 1.0 SDKs' card
 * resolvers both read.
 */
export function card(version: A2aVersion, f: CardFacts): Record<string, unknown> {
  if (version === '0.3') return { ...agentCard(f), supportedInterfaces: interfaces(f.endpointUrl) };
  return {
    name: f.name,
    description: f.description,
    supportedInterfaces: interfaces(f.endpointUrl),
    version: f.version,
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: true },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT', description: BEARER_DESCRIPTION } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: INPUT_MODES,
    defaultOutputModes: OUTPUT_MODES,
    skills: cardSkills(f.skills),
  };
}
