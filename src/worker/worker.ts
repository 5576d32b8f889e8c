import type { Client } from '@temporalio/client';
import {
  bundleWorkflowCode,
  GracefulShutdownPeriodExpiredError,
  NativeConnection,
  Runtime,
  Worker,
  type State,
  type WorkerOptions,
} from '@temporalio/worker';
import type { Db } from 'mongodb';
import { createActivities, type ActivityDeps } from '../activities';
import { workerMetrics } from '../activities/worker-metrics';
import { loadConfig, type Config, type WorkerRole } from '../config/config';
import { createLogger, type Logger } from '../logging/logger';
import { createMailer, type Mailer } from '../mail/mailer';
import { connectTemporal } from '../temporal/client';
import { subscriberDetailsInterceptor } from '../temporal/clients/billing-subscriber';
import { installSdkLogging } from '../temporal/sdk-logging';
import { ensureIndexes } from '../store/indexes';
import { connectStore } from '../store/mongo';
import { createRepositories } from '../store/repositories';
import { WholeKindCache } from '../store/documents';
import { temporalConnectionOptions } from '../temporal/connection';
import { serveWorkerHealth } from '../temporal/worker-health';
import { awaitPromotion } from '../temporal/worker-standby';

export interface WorkerSetup {
  config: Config;
  connection: NativeConnection;
  db: Db;
  logger: Logger;
  /** The process's Temporal client, for activities that signal or start other workflows. */
  client: Client;
  mailer: Mailer | null;
  /** A prebuilt workflow bundle (production, tests); else the workflows are bundled at start-up. */
  workflowBundlePath?: string;
  /** Overrides for tests (e.g. a fake clock in an activity dependency). */
  activityDeps?: Partial<ActivityDeps>;
  /** SDK interceptors (the benchmarks time each activity with one). */
  interceptors?: WorkerOptions['interceptors'];
  /** The task queues to serve; default: the configuration's (WORKER_ROLES). */
  roles?: readonly WorkerRole[];
}

/**
 * One SDK worker per role, each polling its own task queue with its own slots and workflow thread: skill
 * invocations are never queued behind a billing backlog. Run, shut down and watched as one.
 */
export interface ServiceWorker {
  readonly workers: ReadonlyMap<WorkerRole, Worker>;
  /** Resolves when every role's worker has stopped; a role that fails stops the others and rejects. */
  run(): Promise<void>;
  shutdown(): void;
  /** RUNNING while every role runs; else the state of the first that does not. */
  getState(): State;
}

/** Which queue a role polls. The billing queue keeps the shared queue's old name (see Config['temporal']). */
export function roleTaskQueue(config: Config, role: WorkerRole): string {
  return role === 'skills' ? config.temporal.skillsTaskQueue : config.temporal.taskQueue;
}

/**
 * Builds the worker from injected dependencies: the composition the process below and the tests share. Every role
 * registers every workflow and activity: a skill invocation started on the billing queue before the queues were
 * split is finished there (docs/operations.md, "Skills and billing apart").
 */
export async function createWorker(setup: WorkerSetup): Promise<ServiceWorker> {
  const roles = setup.roles ?? setup.config.worker.roles;
  const deps: ActivityDeps = {
    repos: createRepositories(setup.db, { documentCache: new WholeKindCache() }),
    config: setup.config,
    logger: setup.logger,
    temporal: setup.client,
    mailer: setup.mailer,
    metrics: workerMetrics(Runtime.instance().metricMeter),
    ...setup.activityDeps,
  };
  const activities = createActivities(deps);
  // Bundled once for all roles (a prebuilt bundle in production and tests).
  const workflowBundle = setup.workflowBundlePath
    ? { codePath: setup.workflowBundlePath }
    : await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: Runtime.instance().logger });
  // Created side by side: under CPU starvation each creation (a workflow thread loading the bundle, the server's
  // namespace check) takes seconds, and a restarted worker should be back soon (the soak, bench/README.md).
  const created = await Promise.allSettled(
    roles.map(async (role) => {
      const options: WorkerOptions = {
        connection: setup.connection,
        namespace: setup.config.temporal.namespace,
        taskQueue: roleTaskQueue(setup.config, role),
        activities,
        ...workerTuning(setup.config.worker),
        ...(setup.interceptors ? { interceptors: setup.interceptors } : {}),
        workflowBundle,
      };
      return [role, await Worker.create(options)] as const;
    }),
  );
  const workers = new Map(created.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : [])));
  const failed = created.find((c): c is PromiseRejectedResult => c.status === 'rejected');
  if (failed) {
    // A worker created but never run holds native resources until shut down.
    for (const w of workers.values()) w.shutdown();
    throw failed.reason;
  }
  return serviceWorker(workers);
}

function serviceWorker(workers: Map<WorkerRole, Worker>): ServiceWorker {
  const shutdown = () => {
    for (const w of workers.values()) if (w.getState() === 'RUNNING') w.shutdown();
  };
  return {
    workers,
    shutdown,
    getState() {
      for (const w of workers.values()) if (w.getState() !== 'RUNNING') return w.getState();
      return 'RUNNING';
    },
    async run() {
      const runs = [...workers.values()].map((w) =>
        w.run().catch((err: unknown) => {
          shutdown();
          throw err;
        }),
      );
      const settled = await Promise.allSettled(runs);
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}

/**
 * The knobs that matter on a small machine (documented in .env.example). Every workflow task after the first
 * goes to this worker's sticky queue, so a few pollers keep one long poll waiting on each queue; local
 * activities run in the workflow task and have their own slot count.
 */
export function workerTuning(w: Config['worker']): Partial<WorkerOptions> {
  return {
    maxCachedWorkflows: w.maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: w.maxConcurrentWorkflowTasks,
    maxConcurrentActivityTaskExecutions: w.maxConcurrentActivities,
    maxConcurrentLocalActivityExecutions: w.maxConcurrentLocalActivities,
    // As poller behaviours: SDK 1.24 documents maxConcurrentWorkflowTaskPolls / maxConcurrentActivityTaskPolls but
    // reads neither, and polls with min(10, slots) pollers, each holding a slot while it waits. With 8 workflow task
    // slots that left none free, and the server had no slot to hand an eager start to (skills-api.test.ts).
    workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: w.workflowTaskPollers },
    activityTaskPollerBehavior: { type: 'simple-maximum', maximum: w.activityTaskPollers },
    stickyQueueScheduleToStartTimeout: w.stickyQueueTimeoutMs,
    maxEagerActivityReservationsPerWorkflowTask: w.eagerActivities,
    // Without a force time a shutdown could wait forever: after a shutdown request the SDK's core keeps retrying a
    // local activity that fails (temporalio/sdk-rust#709, closed as intended), and during a store outage the
    // subscriber's publishSubscriber fails on every attempt, so its workflow task heartbeat on and the worker
    // never stopped (reproduced: a store client closed under a burst, the worker still running after 3 minutes).
    shutdownGraceTime: w.shutdownGraceMs,
    shutdownForceTime: w.shutdownForceMs,
  };
}

/** The worker process (`node dist/src/worker.js`, src/worker.ts): connects, builds the worker, runs it until a signal. */
export async function runWorkerProcess(): Promise<void> {
  // Where a start's time goes (logged with 'worker started'): a restarted worker should serve again within
  // seconds even on a starved machine (the soak, bench/README.md).
  const startup = startupClock();
  const config = loadConfig(process.env);
  const logger = createLogger(config, 'worker');
  const standby = config.worker.standby ? awaitPromotion() : null;
  installSdkLogging(logger, config.worker.metricsAddress);
  startup.mark('modules');
  // Side by side, for a quick restart (see createWorker). Subscriber workflows its activities start (merges,
  // transfers, forwards) carry console links (static details).
  const [store, connection, temporal] = await Promise.all([
    connectStore(config.mongo.uri, config.mongo.dbName, 'worker'),
    NativeConnection.connect(temporalConnectionOptions(config.temporal)),
    connectTemporal(config.temporal, { interceptors: { workflow: [subscriberDetailsInterceptor(config.http.publicBaseUrl)] } }),
  ]);
  startup.mark('connected');
  const mailer = createMailer(config.smtp.url, config.smtp.from);
  // The indexes are checked while the workers are created (each loads the workflow bundle, seconds of CPU under
  // load): creating a worker polls nothing, and nothing runs before both are done.
  const [, worker] = await Promise.all([
    ensureIndexes(store.db, config.retention).then(() => startup.mark('indexes')),
    createWorker({
      config,
      connection,
      db: store.db,
      logger,
      client: temporal.client,
      mailer,
      workflowBundlePath: config.worker.bundlePath ?? undefined,
    }).then((w) => (startup.mark('workers created'), w)),
  ]);
  if (standby) {
    logger.info({ startupMs: startup.marks() }, 'worker ready as a standby; it serves when told to');
    await standby.ready();
    startup.mark('told to serve');
  }
  const taskQueues = Object.fromEntries([...worker.workers.keys()].map((role) => [role, roleTaskQueue(config, role)]));
  const health = config.worker.healthAddress ? await serveWorkerHealth(config.worker.healthAddress, worker) : null;
  logger.info(
    { taskQueues, namespace: config.temporal.namespace, health: config.worker.healthAddress, startupMs: startup.marks() },
    'worker started',
  );
  // Worker.run() resolves after the SDK's own SIGINT/SIGTERM handling has drained in-flight tasks. A stop that
  // cannot drain ends at WORKER_SHUTDOWN_FORCE_MS (see workerTuning) with GracefulShutdownPeriodExpiredError, or
  // earlier with the SDK's own teardown error (SDK 1.24: "Workflow execution context should have been disposed
  // first", when a workflow task still waits on a local activity). Either way the stop was asked for and what is
  // in flight is retried by Temporal on another worker, as after a crash: exit 0, not as a failed worker.
  let stopAsked = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (stopAsked = true));
  try {
    await worker.run();
  } catch (err) {
    if (!stopAsked && !(err instanceof GracefulShutdownPeriodExpiredError)) throw err;
    logger.warn({ err }, 'worker stopped with tasks still in flight; Temporal retries them on another worker');
    process.exit(0);
  }
  await health?.close();
  mailer?.close();
  await temporal.close();
  await connection.close();
  await store.close();
  logger.info('worker stopped');
}

/** Milliseconds since the process began (Node's own clock origin), at each named step of the start. */
function startupClock(): { mark(step: string): void; marks(): Record<string, number> } {
  const marks: Record<string, number> = {};
  return {
    mark: (step) => void (marks[step] = Math.round(performance.now())),
    marks: () => ({ ...marks }),
  };
}
