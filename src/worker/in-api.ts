import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { Db } from 'mongodb';
import type { Config } from '../config/config';
import type { Logger } from '../logging/logger';
import { createMailer } from '../mail/mailer';
import { createWorker, type ServiceWorker, type WorkerSetup } from './worker';
import { temporalConnectionOptions } from '../temporal/connection';

const RETRY_MS = 5_000;

export interface WorkerInApi {
  /** Stops the worker (draining what it runs) and the retry loop. */
  stop(): Promise<void>;
}

/**
 * A worker inside the API process (API_RUNS_WORKER=true). It shares its NativeConnection with a Temporal
 * client, and only a client on a worker's own NativeConnection may ask for eager workflow start: the server
 * then answers the start with the workflow's first task, which this worker runs at once instead of it
 * waiting in the task queue. The API must come up while Temporal is down, so the worker connects in the
 * background and retries; `onStarter` gets the client while the worker runs (null otherwise), and skill
 * starts go through the API's ordinary client meanwhile.
 */
export function runWorkerInApi(opts: {
  config: Config;
  db: Db;
  logger: Logger;
  workflowBundlePath?: string;
  interceptors?: WorkerSetup['interceptors'];
  onStarter(client: Client | null): void;
}): WorkerInApi {
  const log = opts.logger.child({ component: 'worker-in-api' });
  let stopped = false;
  let worker: ServiceWorker | null = null;
  let wake: (() => void) | null = null;

  const once = async () => {
    const connection = await NativeConnection.connect(temporalConnectionOptions(opts.config.temporal));
    const mailer = createMailer(opts.config.smtp.url, opts.config.smtp.from);
    try {
      const client = new Client({ connection, namespace: opts.config.temporal.namespace });
      worker = await createWorker({
        config: opts.config,
        connection,
        db: opts.db,
        logger: opts.logger,
        client,
        mailer,
        workflowBundlePath: opts.workflowBundlePath,
        interceptors: opts.interceptors,
        // Eager start hands a workflow's first task to a worker on the queue it starts on: skill invocations'.
        roles: ['skills'],
      });
      if (stopped) return;
      const running = worker.run();
      opts.onStarter(client);
      log.info({ taskQueue: opts.config.temporal.skillsTaskQueue }, 'worker running in the API process; skill starts are eager');
      await running;
    } finally {
      opts.onStarter(null);
      worker = null;
      mailer?.close();
      await connection.close().catch(() => undefined);
    }
  };

  const loop = (async () => {
    while (!stopped) {
      try {
        await once();
      } catch (err) {
        log.warn({ err }, `worker in the API process is not running; retrying in ${RETRY_MS / 1000} s`);
      }
      if (!stopped)
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, RETRY_MS).unref();
        });
    }
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      if (worker?.getState() === 'RUNNING') worker.shutdown();
      await loop;
    },
  };
}
