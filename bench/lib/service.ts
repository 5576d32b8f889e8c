/**
 * The product wired as server.ts and worker.ts wire it (createApp + the event relay, createWorker with the
 * prebuilt bundle), in this process, for one benchmark: its own database and task queue on the run's servers.
 * The Temporal client may carry interceptors, which is how the benchmarks time the forwarder's calls.
 */
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import type { RequestListener, Server } from 'node:http';
import { createHttpServer } from '../../src/api/http/http-server';
import { createApp } from '../../src/api/app';
import type { EventForwarder } from '../../src/billing-intake/event-forwarder';
import { composeApi } from '../../src/api/compose';
import { mintToken } from '../../src/auth/mint-token';
import { loadConfig, type Config } from '../../src/config/config';
import { pino } from 'pino';
import type { Logger } from '../../src/logging/logger';
import { ensureIndexes } from '../../src/store/indexes';
import { connectStore, type Store } from '../../src/store/mongo';
import { connectTemporalLazy, type ApiTemporalHandle } from '../../src/temporal/client';
import { createWorker, type ServiceWorker, type WorkerSetup } from '../../src/worker/worker';
import { runWorkerInApi, type WorkerInApi } from '../../src/worker/in-api';
import type { BenchStack } from './stack';

/** A secret made for this run only (the config refuses defaults, rightly). */
const JWT_SECRET = randomBytes(32).toString('hex');

/** The secret benchToken signs with, for a service a benchmark runs as its own processes (bench/soak.ts). */
export const benchJwtSecret = (): string => JWT_SECRET;

/**
 * What an API process in production mode refuses to start without (src/config/production.ts), for a benchmark that
 * runs the API as its own process (bench/soak.ts); its tokens then carry this issuer and audience (benchToken).
 */
export const benchProductionEnv = {
  JWT_ISSUER: 'skills-billing-bench',
  JWT_AUDIENCE: 'skills-billing-api',
  METRICS_TOKEN: randomBytes(16).toString('hex'),
} as const;

export function benchConfig(stack: BenchStack, name: string, overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'production',
    // Both the product and the baselines log warnings only (benchLogger): a per-request access line would
    // measure the terminal, not the service.
    LOG_LEVEL: 'warn',
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_TASK_QUEUE: `bench-${name}`,
    MONGODB_URI: stack.mongoUri,
    MONGODB_DB: `bench_${name.replace(/\W/g, '_')}`,
    JWT_SECRET,
    SKILL_INVOCATIONS_PER_MINUTE: '1000000',
    ...overrides,
  });
}

/**
 * The service's logger for a bench: warnings and errors only, to stderr (stdout carries the table), and
 * counted by message so a benchmark can report them ("relay failed; will retry" ×N).
 */
export function benchLogger(name: string): { logger: Logger; warnings: Map<string, number> } {
  const warnings = new Map<string, number>();
  const logger = pino(
    {
      name,
      level: 'warn',
      hooks: {
        logMethod(args, method) {
          const msg = typeof args[0] === 'string' ? args[0] : typeof args[1] === 'string' ? args[1] : 'log';
          warnings.set(msg, (warnings.get(msg) ?? 0) + 1);
          method.apply(this, args);
        },
      },
    },
    pino.destination(2),
  );
  return { logger, warnings };
}

export const warningNote = (warnings: Map<string, number>) =>
  warnings.size === 0 ? [] : [`  service log warnings/errors: ${[...warnings.entries()].map(([m, n]) => `"${m}" ×${n}`).join(', ')}`];

export const benchToken = (
  claims: { projects?: string[]; apps?: string[]; roles?: string[] },
  pinned: { issuer: string; audience: string } | null = null,
) => mintToken(JWT_SECRET, { sub: 'bench', ...claims }, { expiresInSeconds: 3600, ...pinned });

export interface Service {
  config: Config;
  logger: Logger;
  warnings: Map<string, number>;
  store: Store;
  temporal: ApiTemporalHandle;
  forwarder: EventForwarder;
  baseUrl: string;
  startWorker(opts?: { interceptors?: WorkerSetup['interceptors'] }): Promise<ServiceWorker>;
  /**
   * A worker inside the API as API_RUNS_WORKER=true wires it (src/worker/in-api.ts): skill starts go through
   * its NativeConnection with eager start. Resolves once it runs.
   */
  startWorkerInApi(opts?: { interceptors?: WorkerSetup['interceptors'] }): Promise<void>;
  close(): Promise<void>;
}

async function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function listen(callback: RequestListener): Promise<{ server: Server; baseUrl: string }> {
  const server = createHttpServer(callback);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  return { server, baseUrl: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` };
}

export const closeServer = (server: Server) =>
  new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });

export async function startService(
  stack: BenchStack,
  name: string,
  opts: { interceptors?: WorkflowClientInterceptor[]; env?: Record<string, string> } = {},
): Promise<Service> {
  const config = benchConfig(stack, name, opts.env);
  const { logger, warnings } = benchLogger(`bench-${name}`);
  const store = await connectStore(config.mongo.uri, config.mongo.dbName, `bench-${name}`);
  await store.db.dropDatabase();
  await ensureIndexes(store.db);
  const temporal: ApiTemporalHandle = connectTemporalLazy(config.temporal, { interceptors: { workflow: opts.interceptors ?? [] } });
  const deps = composeApi({ config, logger, db: store.db, temporal });
  const { forwarder } = deps;
  const { app } = createApp(deps);
  await forwarder.start();
  const { server, baseUrl } = await listen(app.callback());
  const workers: { worker: ServiceWorker; done: Promise<void>; connection: NativeConnection }[] = [];
  const inApi: WorkerInApi[] = [];

  return {
    config,
    logger,
    warnings,
    store,
    temporal,
    forwarder,
    baseUrl,
    async startWorker(w = {}) {
      const connection = await NativeConnection.connect({ address: config.temporal.address });
      const worker = await createWorker({
        config,
        connection,
        db: store.db,
        logger,
        client: temporal.client,
        mailer: null,
        workflowBundlePath: stack.workflowBundlePath,
        interceptors: w.interceptors,
      });
      workers.push({ worker, done: worker.run(), connection });
      return worker;
    },
    async startWorkerInApi(w = {}) {
      let ready: () => void = () => undefined;
      const running = new Promise<void>((r) => (ready = r));
      inApi.push(
        runWorkerInApi({
          config,
          db: store.db,
          logger,
          workflowBundlePath: stack.workflowBundlePath,
          interceptors: w.interceptors,
          onStarter: (c) => {
            temporal.starter = c;
            if (c) ready();
          },
        }),
      );
      await withDeadline(running, 60_000, 'the worker in the API process to run');
    },
    async close() {
      await closeServer(server);
      await forwarder.stop();
      for (const w of inApi) await w.stop();
      for (const w of workers) {
        if (w.worker.getState() === 'RUNNING') w.worker.shutdown();
        await w.done.catch(() => undefined);
        await w.connection.close();
      }
      await temporal.close();
      await store.close();
    },
  };
}
