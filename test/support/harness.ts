import { NativeConnection, Runtime } from '@temporalio/worker';
import type { Server } from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import { createApp } from '../../src/api/app';
import { createHttpServer } from '../../src/api/http/http-server';
import type { EventForwarder } from '../../src/billing-intake/event-forwarder';
import { composeApi } from '../../src/api/compose';
import type { McpSessionPool } from '../../src/api/agents/mcp/session-pool';
import type { Clock } from '../../src/config/clock';
import type { Repositories } from '../../src/store/repositories';
import type { Config } from '../../src/config/config';
import { createLogger } from '../../src/logging/logger';
import { createMailer } from '../../src/mail/mailer';
import { ensureIndexes } from '../../src/store/indexes';
import { connectStore, type Store } from '../../src/store/mongo';
import { connectTemporalLazy, type ApiTemporalHandle } from '../../src/temporal/client';
import { subscriberDetailsInterceptor } from '../../src/temporal/clients/billing-subscriber';
import { createWorker, type ServiceWorker } from '../../src/worker/worker';
import type { ActivityDeps } from '../../src/activities';
import { workflowBundlePath } from './bundle';
import { testConfig } from './config';
import { assertMatchesDocument } from './openapi-validator';
import { temporalConnectionOptions } from '../../src/temporal/connection';

let runtimeQuieted = false;

export interface Harness {
  config: Config;
  forwarder: EventForwarder;
  /** The app's own repositories (the ones its routes use). */
  repos: Repositories;
  /** The app's MCP sessions: `closeAll()` is what server.ts does on shutdown. */
  mcpSessions: McpSessionPool;
  store: Store;
  db: Db;
  temporal: ApiTemporalHandle;
  baseUrl: string;
  /** Starts an in-process worker (stopped by close()). */
  /** An in-process worker on the suite's task queue; `workflowInterceptorModules`: test-only sandbox code (bundle.ts). */
  startWorker(activityDeps?: Partial<ActivityDeps>, workflowInterceptorModules?: string[]): Promise<ServiceWorker>;
  /** Starts `node dist/src/worker.js` as a real child process, for crash tests (SIGKILL it). */
  /** A worker as its own process (`node dist/src/worker.js`), with `env` beside the harness's settings. */
  spawnWorkerProcess(env?: Record<string, string>): Promise<ChildProcess>;
  /** An HTTP request to the API; the answer is checked against the OpenAPI document (test/support/openapi-validator.ts). */
  request(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  text: string;
}

/** A real stack for one suite: the API on an ephemeral loopback port, a fresh database, a private task queue. */
export async function startHarness(
  overrides: Record<string, string> = {},
  options: { monitorCommands?: boolean; now?: Clock } = {},
): Promise<Harness> {
  if (!runtimeQuieted) {
    // The SDK's own logs only when asked for (TEST_SDK_LOGS=1): failing activities and workflow tasks show there.
    const show = process.env.TEST_SDK_LOGS === '1';
    const print = (level: string) => (message: string, meta?: unknown) => show && console.error(`[sdk ${level}] ${message}`, meta ?? '');
    Runtime.install({
      logger: {
        trace: () => {},
        debug: () => {},
        info: () => {},
        warn: print('warn'),
        error: print('error'),
        log: (level, message, meta) => print(level)(message, meta),
      },
    });
    runtimeQuieted = true;
  }
  const config = testConfig(overrides);
  const logger = createLogger(config, 'test');
  const store = await connectStore(config.mongo.uri, config.mongo.dbName, 'test', options);
  await ensureIndexes(store.db, config.retention);
  // Lazy, as in server.ts: a suite may point at a Temporal that is down on purpose.
  const temporal = connectTemporalLazy(config.temporal, {
    interceptors: { workflow: [subscriberDetailsInterceptor(config.http.publicBaseUrl)] },
  });
  const deps = composeApi({ config, logger, db: store.db, temporal, now: options.now });
  const { forwarder, repos, mcpSessions, deliveryLog } = deps;
  const { app } = createApp(deps);
  await forwarder.start();
  // The server's timeouts as in production: Node's 5-second keep-alive default lost a request written on a
  // connection the server was closing, after a test had held the event loop for longer than that.
  const server: Server = createHttpServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  const baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const workers: { worker: ServiceWorker; done: Promise<void>; connection: NativeConnection }[] = [];
  const children: ChildProcess[] = [];

  return {
    config,
    forwarder,
    repos,
    mcpSessions,
    store,
    db: store.db,
    temporal,
    baseUrl,
    async startWorker(activityDeps, workflowInterceptorModules) {
      const connection = await NativeConnection.connect(temporalConnectionOptions(config.temporal));
      const worker = await createWorker({
        config,
        connection,
        db: store.db,
        logger,
        client: temporal.client,
        mailer: createMailer(config.smtp.url, config.smtp.from),
        workflowBundlePath: await workflowBundlePath(workflowInterceptorModules),
        activityDeps,
      });
      const done = worker.run();
      workers.push({ worker, done, connection });
      return worker;
    },
    async spawnWorkerProcess(extra = {}) {
      const env = {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        TEMPORAL_ADDRESS: config.temporal.address,
        TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
        MONGODB_URI: config.mongo.uri,
        MONGODB_DB: config.mongo.dbName,
        JWT_SECRET: config.jwt.secret ?? '',
        WORKFLOW_BUNDLE_PATH: await workflowBundlePath(),
        ...overrides,
        ...extra,
      };
      const child = spawn(process.execPath, [join(__dirname, '..', '..', 'src', 'worker.js')], {
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      return child;
    },
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
      let body: string | undefined = opts.raw;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['Content-Type'] ??= 'application/json';
      }
      const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      // Every answer a test reads is one the OpenAPI document describes (status, media type, body schema).
      assertMatchesDocument({ method, path, status: res.status, contentType: res.headers.get('content-type'), body: parsed, text });
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async close() {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      for (const w of workers) {
        if (w.worker.getState() === 'RUNNING') w.worker.shutdown();
        await w.done.catch(() => undefined);
        await w.connection.close();
      }
      await mcpSessions.closeAll();
      // Connections still open (a stream a dropped client left, a keep-alive one) are ended, not waited for: under
      // CPU starvation their ends came over a minute late and outlasted the hook.
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await closed;
      await forwarder.stop();
      await deliveryLog.stop();
      await temporal.close();
      await store.db.dropDatabase().catch(() => undefined);
      await store.close();
    },
  };
}

/** The environment a CLI process needs to reach the harness's store and Temporal, quiet unless told otherwise. */
export function cliEnv(h: Pick<Harness, 'config'>, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LOG_LEVEL: 'silent',
    TEMPORAL_ADDRESS: h.config.temporal.address,
    MONGODB_URI: h.config.mongo.uri,
    MONGODB_DB: h.config.mongo.dbName,
    JWT_SECRET: h.config.jwt.secret!,
    ...extra,
  };
}
