import type { Client } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Db } from 'mongodb';
import { createActivities, type ActivityDeps } from './activities';
import { workerMetrics } from './activities/worker-metrics';
import { loadConfig, type Config } from './config/config';
import { createLogger, type Logger } from './logging/logger';
import { createMailer, type Mailer } from './mail/mailer';
import { connectTemporal } from './temporal/client';
import { subscriberDetailsInterceptor } from './temporal/clients/billing-subscriber';
import { installSdkLogging } from './temporal/sdk-logging';
import { ensureIndexes } from './store/indexes';
import { connectStore } from './store/mongo';
import { createRepositories } from './store/repositories';
import { WholeKindCache } from './store/documents';
import { temporalConnectionOptions } from './temporal/connection';

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
}

/** Builds the worker from injected dependencies: the composition the process below and the tests share. */
export async function createWorker(setup: WorkerSetup): Promise<Worker> {
  const deps: ActivityDeps = {
    repos: createRepositories(setup.db, { documentCache: new WholeKindCache() }),
    config: setup.config,
    logger: setup.logger,
    temporal: setup.client,
    mailer: setup.mailer,
    metrics: workerMetrics(Runtime.instance().metricMeter),
    ...setup.activityDeps,
  };
  const options: WorkerOptions = {
    connection: setup.connection,
    namespace: setup.config.temporal.namespace,
    taskQueue: setup.config.temporal.taskQueue,
    activities: createActivities(deps),
    ...workerTuning(setup.config.worker),
    ...(setup.interceptors ? { interceptors: setup.interceptors } : {}),
    ...(setup.workflowBundlePath
      ? { workflowBundle: { codePath: setup.workflowBundlePath } }
      : { workflowsPath: require.resolve('./workflows') }),
  };
  return Worker.create(options);
}

/**
 * The knobs that matter on a small machine (documented in .env.example). Every workflow task after the first
 * goes to this worker's sticky queue, so a few pollers keep one long poll waiting on each queue; local
 * activities run in the workflow task and have their own slot count.
 */
export function workerTuning(w: Config['worker']): Partial<WorkerOptions> {
  return {
    maxCachedWorkflows: w.maxCachedWorkflows,
    maxConcurrentActivityTaskExecutions: w.maxConcurrentActivities,
    maxConcurrentLocalActivityExecutions: w.maxConcurrentLocalActivities,
    maxConcurrentWorkflowTaskPolls: w.workflowTaskPollers,
    maxConcurrentActivityTaskPolls: w.activityTaskPollers,
    stickyQueueScheduleToStartTimeout: w.stickyQueueTimeoutMs,
    maxEagerActivityReservationsPerWorkflowTask: w.eagerActivities,
  };
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config, 'worker');
  installSdkLogging(logger, config.worker.metricsAddress);
  const store = await connectStore(config.mongo.uri, config.mongo.dbName, 'worker');
  await ensureIndexes(store.db, config.retention);
  const connection = await NativeConnection.connect(temporalConnectionOptions(config.temporal));
  // Subscriber workflows its activities start (merges, transfers, forwards) carry console links (static details).
  const temporal = await connectTemporal(config.temporal, {
    interceptors: { workflow: [subscriberDetailsInterceptor(config.http.publicBaseUrl)] },
  });
  const mailer = createMailer(config.smtp.url, config.smtp.from);
  const worker = await createWorker({
    config,
    connection,
    db: store.db,
    logger,
    client: temporal.client,
    mailer,
    workflowBundlePath: config.worker.bundlePath ?? undefined,
  });
  logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace }, 'worker started');
  // Worker.run() resolves after the SDK's own SIGINT/SIGTERM handling has drained in-flight tasks.
  await worker.run();
  mailer?.close();
  await temporal.close();
  await connection.close();
  await store.close();
  logger.info('worker stopped');
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`worker failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
