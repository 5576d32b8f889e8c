/**
 * Configuration, validated once. `loadConfig(env)` is pure: it reads only the object it is given and
 * throws one ConfigError that lists every bad variable, so an operator fixes them all in one go.
 */

export type JwtAlgorithm = 'HS256' | 'RS256' | 'ES256';

/** How long what grows with use is kept (the store's TTL indexes; src/store/retention.ts). Null keeps it forever. */
export interface Retention {
  /** The webhook inbox: must outlive the provider's retry window so a late redelivery is still a duplicate. */
  webhookEventDays: number;
  mailOutboxDays: number;
  /** The event log of webhook deliveries (src/store/event-log.ts); also bounded per scope by `eventLog`. */
  eventLogDays: number;
  /** Finished invocations (records and results); unfinished ones are never removed. */
  invocationDays: number | null;
}

export interface Config {
  env: 'development' | 'test' | 'production';
  http: { host: string; port: number; publicBaseUrl: string; trustProxy: boolean };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  temporal: {
    address: string;
    namespace: string;
    /**
     * The billing task queue: subscriber, totals and outbound-delivery workflows. It keeps the name the one shared
     * queue had, so billing workflows already running there go on being served where they are.
     */
    taskQueue: string;
    /** Skill invocations' own queue, polled by a worker with its own slots, so billing never holds them up. */
    skillsTaskQueue: string;
    uiUrl: string | null;
    /** Null: plaintext (a local dev server). Paths are read when connecting (src/temporal/connection.ts). */
    tls: { caPath: string | null; certPath: string | null; keyPath: string | null; serverName: string | null } | null;
    /** Temporal Cloud API key (sent as a bearer token; implies TLS). */
    apiKey: string | null;
  };
  mongo: { uri: string; dbName: string };
  jwt: {
    secret: string | null;
    publicKey: string | null;
    algorithms: JwtAlgorithm[];
    issuer: string | null;
    audience: string | null;
    /** How far the issuer's clock may be off: `exp`, `nbf` and `iat` are judged with this much slack. */
    clockSkewSeconds?: number;
  };
  webhooks: { operatorAuthorization: string | null; rotationGraceHours: number };
  /** `token`: when set, GET /metrics answers only `Authorization: Bearer <token>` (Prometheus' `authorization`). */
  metrics: { token: string | null };
  smtp: { url: string | null; from: string };
  /**
   * `responseFormat`: how the answer's shape is asked for. json_schema: OpenAI's structured outputs (OpenAI, vLLM,
   * Ollama, LiteLLM); json_object: JSON mode with the schema beside it, as llama.cpp's Python server takes it.
   * `perProject`, `waitingPerProject`: a worker's rewrites of one project at the model at once, and waiting for a
   * turn (more: the draft stays, with a note); see src/llm/project-gate.ts.
   */
  llm: {
    baseUrl: string | null;
    apiKey: string | null;
    model: string | null;
    timeoutMs: number;
    responseFormat: 'json_schema' | 'json_object';
    perProject: number;
    waitingPerProject: number;
  };
  skills: { entitlements: Record<string, string>; invocationsPerMinute: number };
  /**
   * The agent surfaces (MCP, A2A, event streams), bounded per caller (a token's `sub`) and per process.
   * `allowedOrigins`/`allowedHosts`: what an MCP request's Origin and Host may be (DNS-rebinding protection);
   * `loopbackAllowed`: loopback origins and hosts on any port too (every mode but production).
   */
  agents: {
    allowedOrigins: string[];
    allowedHosts: string[];
    loopbackAllowed: boolean;
    mcpSessionsPerCaller: number;
    mcpSessionsMax: number;
    mcpSessionIdleMs: number;
    streamsPerCaller: number;
    streamsMax: number;
  };
  worker: {
    maxCachedWorkflows: number;
    maxConcurrentWorkflowTasks: number;
    maxConcurrentActivities: number;
    maxConcurrentLocalActivities: number;
    workflowTaskPollers: number;
    activityTaskPollers: number;
    stickyQueueTimeoutMs: number;
    eagerActivities: number;
    /** Which task queues this worker process serves (WORKER_ROLES): both by default, one each when deployed apart. */
    roles: WorkerRole[];
    /** Run a worker inside the API process too, so skill starts can be eager (see src/worker/in-api.ts). */
    inApi: boolean;
    /** host:port where a worker process serves Prometheus metrics (null: none). */
    metricsAddress: string | null;
    /** A prebuilt workflow bundle to load (WORKFLOW_BUNDLE_PATH; the Docker image ships one); null: bundled at start. */
    bundlePath: string | null;
    /** host:port where a worker process answers GET /healthz, its liveness (null: none). */
    healthAddress: string | null;
    /** After a shutdown request: how long in-flight activities may finish before they are cancelled. */
    shutdownGraceMs: number;
    /** After a shutdown request: when the worker stops waiting and the process exits with work still in flight. */
    shutdownForceMs: number;
    /**
     * WORKER_STANDBY=true: a standby the dev stack's supervisor keeps ready beside the running worker (created, polling
     * nothing) and tells to serve when that one exits (src/temporal/worker-standby.ts).
     */
    standby: boolean;
  };
  retention: Retention;
  /** How many entries the event log keeps per scope, and in the bucket of deliveries no app can be named for. */
  eventLog: { maxPerScope: number; maxUnattributed: number };
  outbound: {
    /** Development only: allow `http` and loopback receivers (a local test receiver). */
    allowLoopback: boolean;
    timeoutMs: number;
    retry: { baseMs: number; capMs: number; windowMs: number };
    /** An endpoint whose deliveries all failed for this long is disabled. */
    disableAfterMs: number;
    /** Where the 403 of an app without early access tells customers to ask. */
    accessContact: string;
    /**
     * Deliveries started by hand (a test event, a redelivery, a batch of failed ones), per endpoint and minute;
     * an app's endpoints together get three times as many.
     */
    manualPerMinute: number;
  };
}

export const WORKER_ROLES = ['skills', 'billing'] as const;
export type WorkerRole = (typeof WORKER_ROLES)[number];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  const str = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const required = (name: string, hint: string): string => {
    const v = str(name);
    if (v === null) problems.push(`${name} is required (${hint})`);
    return v ?? '';
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const v = str(name);
    if (v === null) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer between ${min} and ${max}, got "${v}"`);
      return fallback;
    }
    return n;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const v = str(name);
    if (v === null) return fallback;
    if (!(allowed as readonly string[]).includes(v)) {
      problems.push(`${name} must be one of ${allowed.join(', ')}, got "${v}"`);
      return fallback;
    }
    return v as T;
  };
  const url = (name: string, protocols: string[]): string | null => {
    const v = str(name);
    if (v === null) return null;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) problems.push(`${name} must use ${protocols.join(' or ')}, got "${u.protocol}"`);
    } catch {
      problems.push(`${name} must be a URL`);
    }
    return v;
  };

  const bool = (name: string, fallback: boolean): boolean => {
    const v = str(name);
    if (v === null) return fallback;
    if (v !== 'true' && v !== 'false') {
      problems.push(`${name} must be true or false, got "${v}"`);
      return fallback;
    }
    return v === 'true';
  };

  const hostPort = (name: string): string | null => {
    const v = str(name);
    if (v !== null && !/^[A-Za-z0-9.\-]+:\d{1,5}$/.test(v)) problems.push(`${name} must be host:port, e.g. 0.0.0.0:9464, got "${v}"`);
    return v;
  };

  const list = (name: string): string[] | null =>
    str(name)
      ?.split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '') ?? null;

  // Origins as browsers send them (scheme://host[:port], no path), so a listed one compares as a string.
  const origins = (name: string): string[] | null =>
    list(name)?.map((v) => {
      const origin = URL.canParse(v) ? new URL(v).origin : 'null';
      if (origin === 'null') problems.push(`${name}: "${v}" is not an origin such as https://skills.example.com`);
      return origin;
    }) ?? null;

  const roles = (name: string): WorkerRole[] => {
    const v = str(name);
    if (v === null) return [...WORKER_ROLES];
    const named = v.split(',').map((r) => r.trim());
    const bad = named.filter((r) => !(WORKER_ROLES as readonly string[]).includes(r));
    if (bad.length > 0 || named.length === 0) {
      problems.push(`${name} must list one or more of ${WORKER_ROLES.join(', ')} (comma-separated), got "${v}"`);
      return [...WORKER_ROLES];
    }
    return WORKER_ROLES.filter((r) => named.includes(r));
  };

  const optionalInt = (name: string, min: number, max: number): number | null => (str(name) === null ? null : int(name, min, min, max));

  // TLS is on when asked for, when any TLS file is named, or with an API key (Temporal Cloud needs TLS).
  const temporalSecurity = (): Pick<Config['temporal'], 'tls' | 'apiKey'> => {
    const apiKey = str('TEMPORAL_API_KEY');
    const files = { caPath: str('TEMPORAL_TLS_CA_PATH'), certPath: str('TEMPORAL_TLS_CERT_PATH'), keyPath: str('TEMPORAL_TLS_KEY_PATH') };
    const serverName = str('TEMPORAL_TLS_SERVER_NAME');
    if ((files.certPath === null) !== (files.keyPath === null))
      problems.push('TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH go together (mTLS needs both)');
    const named = Object.values(files).some((f) => f !== null) || serverName !== null;
    const on = bool('TEMPORAL_TLS', named || apiKey !== null);
    if (!on && named) problems.push('TEMPORAL_TLS=false, but TEMPORAL_TLS_* settings are given');
    return { tls: on ? { ...files, serverName } : null, apiKey };
  };

  const nodeEnv = oneOf('NODE_ENV', ['development', 'test', 'production'] as const, 'development');
  const host = str('HOST') ?? '127.0.0.1';
  const port = int('PORT', 3000, 0, 65535);

  const secret = str('JWT_SECRET');
  const publicKey = str('JWT_PUBLIC_KEY')?.replace(/\\n/g, '\n') ?? null;
  if (!secret && !publicKey) problems.push('JWT_SECRET or JWT_PUBLIC_KEY is required (no default secret is ever used)');
  if (secret && secret.length < 32) problems.push('JWT_SECRET must be at least 32 characters');
  const defaultAlgs: JwtAlgorithm[] = secret ? ['HS256'] : ['RS256', 'ES256'];
  const algorithms = (str('JWT_ALGORITHMS')
    ?.split(',')
    .map((a) => a.trim()) ?? defaultAlgs) as JwtAlgorithm[];
  for (const a of algorithms) {
    if (!['HS256', 'RS256', 'ES256'].includes(a)) problems.push(`JWT_ALGORITHMS: unsupported algorithm "${a}"`);
    if (a === 'HS256' && !secret) problems.push('JWT_ALGORITHMS includes HS256 but JWT_SECRET is not set');
    if (a !== 'HS256' && !publicKey) problems.push(`JWT_ALGORITHMS includes ${a} but JWT_PUBLIC_KEY is not set`);
  }

  const operatorAuthorization = str('OPERATOR_WEBHOOK_AUTHORIZATION');
  if (operatorAuthorization && operatorAuthorization.length < 16) {
    problems.push('OPERATOR_WEBHOOK_AUTHORIZATION must be at least 16 characters');
  }

  let entitlements: Record<string, string> = {};
  const rawEntitlements = str('SKILL_ENTITLEMENTS');
  if (rawEntitlements) {
    try {
      const parsed: unknown = JSON.parse(rawEntitlements);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) {
        throw new Error('not a map');
      }
      entitlements = parsed as Record<string, string>;
    } catch {
      problems.push('SKILL_ENTITLEMENTS must be a JSON object mapping skill name to entitlement id, e.g. {"incident_rca":"pro"}');
    }
  }

  const publicBaseUrl = (url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://${host}:${port}`).replace(/\/$/, '');
  const publicOrigin = URL.canParse(publicBaseUrl) ? new URL(publicBaseUrl) : null;

  const llmBaseUrl = url('LLM_BASE_URL', ['http:', 'https:']);
  const llmModel = str('LLM_MODEL');
  if (llmBaseUrl && !llmModel) problems.push('LLM_MODEL is required when LLM_BASE_URL is set');

  const config: Config = {
    env: nodeEnv,
    http: {
      host,
      port,
      publicBaseUrl,
      trustProxy: bool('TRUST_PROXY', false),
    },
    logLevel: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    temporal: {
      address: required('TEMPORAL_ADDRESS', 'host:port of the Temporal frontend, e.g. 127.0.0.1:7233'),
      namespace: str('TEMPORAL_NAMESPACE') ?? 'default',
      taskQueue: str('TEMPORAL_TASK_QUEUE') ?? 'skills-billing',
      skillsTaskQueue: str('TEMPORAL_SKILLS_TASK_QUEUE') ?? `${str('TEMPORAL_TASK_QUEUE') ?? 'skills-billing'}-skills`,
      uiUrl: url('TEMPORAL_UI_URL', ['http:', 'https:'])?.replace(/\/$/, '') ?? null,
      ...temporalSecurity(),
    },
    mongo: {
      uri: required('MONGODB_URI', 'e.g. mongodb://127.0.0.1:27017'),
      dbName: str('MONGODB_DB') ?? 'skills_billing',
    },
    jwt: {
      secret,
      publicKey,
      algorithms,
      issuer: str('JWT_ISSUER'),
      audience: str('JWT_AUDIENCE'),
      clockSkewSeconds: int('JWT_CLOCK_SKEW_SECONDS', 60, 0, 600),
    },
    webhooks: { operatorAuthorization, rotationGraceHours: int('WEBHOOK_ROTATION_GRACE_HOURS', 24, 0, 24 * 30) },
    metrics: { token: str('METRICS_TOKEN') },
    smtp: { url: url('SMTP_URL', ['smtp:', 'smtps:']), from: str('MAIL_FROM') ?? 'billing@localhost' },
    llm: {
      baseUrl: llmBaseUrl,
      apiKey: str('LLM_API_KEY'),
      model: llmModel,
      timeoutMs: int('LLM_TIMEOUT_MS', 30_000, 100, 600_000),
      responseFormat: oneOf('LLM_RESPONSE_FORMAT', ['json_schema', 'json_object'] as const, 'json_schema'),
      perProject: int('LLM_REWRITES_PER_PROJECT', 1, 1, 1_000),
      waitingPerProject: int('LLM_WAITING_PER_PROJECT', 4, 0, 10_000),
    },
    skills: { entitlements, invocationsPerMinute: int('SKILL_INVOCATIONS_PER_MINUTE', 60, 1, 1_000_000) },
    agents: {
      allowedOrigins: origins('MCP_ALLOWED_ORIGINS') ?? (publicOrigin ? [publicOrigin.origin] : []),
      allowedHosts: list('MCP_ALLOWED_HOSTS')?.map((h) => h.toLowerCase()) ?? (publicOrigin ? [publicOrigin.host] : []),
      loopbackAllowed: nodeEnv !== 'production',
      mcpSessionsPerCaller: int('MCP_SESSIONS_PER_CALLER', 10, 1, 1_000),
      mcpSessionsMax: int('MCP_SESSIONS_MAX', 1_000, 1, 100_000),
      mcpSessionIdleMs: int('MCP_SESSION_IDLE_SECONDS', 1_800, 1, 86_400) * 1_000,
      streamsPerCaller: int('EVENT_STREAMS_PER_CALLER', 20, 1, 10_000),
      streamsMax: int('EVENT_STREAMS_MAX', 500, 1, 100_000),
    },
    worker: {
      // Explicit cap: the SDK derives a default from the heap limit that can exhaust the workflow isolate on small machines.
      maxCachedWorkflows: int('WORKER_MAX_CACHED_WORKFLOWS', 500, 0, 100_000),
      // Workflow tasks one role's worker holds at once (the SDK's default is 40). Few: a task the worker has taken
      // waits in its own first-come queue (its event loop, shared with the other role), one still in Temporal's queue
      // waits in fairness order (src/temporal/fairness.ts); on two cores more only queue up in the worker (soak:
      // bench/README.md).
      maxConcurrentWorkflowTasks: int('WORKER_MAX_CONCURRENT_WORKFLOW_TASKS', 8, 2, 10_000),
      maxConcurrentActivities: int('WORKER_MAX_CONCURRENT_ACTIVITIES', 100, 1, 10_000),
      maxConcurrentLocalActivities: int('WORKER_MAX_CONCURRENT_LOCAL_ACTIVITIES', 100, 1, 10_000),
      // Long polls held open per worker. Each is idle until a task arrives; a few suffice for one worker on a
      // small machine, and every poll the server holds costs it memory and wake-ups.
      workflowTaskPollers: int('WORKER_WORKFLOW_TASK_POLLERS', 4, 2, 100),
      // 10: what SDK 1.24 polled with while it ignored this setting (src/worker/worker.ts); an alias flood fans out to
      // hundreds of remote signalSubscriber activities, which 2 pollers fetched too slowly.
      activityTaskPollers: int('WORKER_ACTIVITY_TASK_POLLERS', 10, 1, 100),
      // How long a workflow task waits on this worker's sticky queue before the server hands it to any worker.
      stickyQueueTimeoutMs: int('WORKER_STICKY_QUEUE_TIMEOUT_MS', 5_000, 1_000, 60_000),
      // Activity slots a completed workflow task may reserve for activities the server hands back at once
      // (eager activity execution; the server must enable system.enableActivityEagerExecution). 0 turns it off.
      eagerActivities: int('WORKER_EAGER_ACTIVITIES', 3, 0, 100),
      roles: roles('WORKER_ROLES'),
      inApi: bool('API_RUNS_WORKER', false),
      metricsAddress: hostPort('WORKER_METRICS_ADDRESS'),
      bundlePath: str('WORKFLOW_BUNDLE_PATH'),
      healthAddress: hostPort('WORKER_HEALTH_ADDRESS'),
      // A stop must end: the SDK keeps retrying a failing local activity after a shutdown request, so during a
      // store outage an unbounded shutdown never finished (src/worker/worker.ts). What is still in flight at the force
      // time is retried by Temporal on another worker, as after a crash.
      shutdownGraceMs: int('WORKER_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
      shutdownForceMs: int('WORKER_SHUTDOWN_FORCE_MS', 30_000, 1_000, 3_600_000),
      standby: bool('WORKER_STANDBY', false),
    },
    retention: {
      // At least 2 days: the provider retries a delivery for up to 24 hours, and a redelivery must still find it.
      webhookEventDays: int('WEBHOOK_EVENT_RETENTION_DAYS', 30, 2, 3650),
      mailOutboxDays: int('MAIL_OUTBOX_RETENTION_DAYS', 30, 1, 3650),
      eventLogDays: int('EVENT_LOG_RETENTION_DAYS', 30, 1, 3650),
      invocationDays: optionalInt('INVOCATION_RETENTION_DAYS', 1, 3650),
    },
    eventLog: {
      maxPerScope: int('EVENT_LOG_MAX_PER_SCOPE', 50_000, 100, 10_000_000),
      maxUnattributed: int('EVENT_LOG_MAX_UNATTRIBUTED', 10_000, 100, 10_000_000),
    },
    outbound: {
      allowLoopback: bool('OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK', false),
      timeoutMs: int('OUTBOUND_WEBHOOKS_TIMEOUT_MS', 10_000, 100, 60_000),
      retry: {
        baseMs: int('OUTBOUND_WEBHOOKS_RETRY_BASE_MS', 30_000, 10, 3_600_000),
        capMs: int('OUTBOUND_WEBHOOKS_RETRY_CAP_MS', 6 * 3_600_000, 10, 24 * 3_600_000),
        windowMs: int('OUTBOUND_WEBHOOKS_RETRY_WINDOW_MS', 24 * 3_600_000, 100, 7 * 24 * 3_600_000),
      },
      disableAfterMs: int('OUTBOUND_WEBHOOKS_DISABLE_AFTER_HOURS', 72, 1, 24 * 30) * 3_600_000,
      accessContact: str('OUTBOUND_WEBHOOKS_ACCESS_CONTACT') ?? 'your account contact',
      manualPerMinute: int('OUTBOUND_WEBHOOKS_MANUAL_PER_MINUTE', 10, 1, 10_000),
    },
  };
  if (config.worker.shutdownForceMs <= config.worker.shutdownGraceMs)
    problems.push('WORKER_SHUTDOWN_FORCE_MS must be greater than WORKER_SHUTDOWN_GRACE_MS');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
