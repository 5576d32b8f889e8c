import type { Client } from '@temporalio/client';
import type { Config } from '../config/config';
import type { Logger } from '../logging/logger';
import type { Mailer } from '../mail/mailer';
import type { Repositories } from '../store/repositories';
import type { WorkerMetrics } from './worker-metrics';
import type { Clock } from '../config/clock';

/** Everything activities may touch, injected by the worker's composition root. */
export interface ActivityDeps {
  /** Built once per worker process (createWorker), with the worker's document cache. */
  repos: Repositories;
  config: Config;
  logger: Logger;
  /** For activities that signal or start other workflows (billing merges, the metrics workflow). */
  temporal: Client;
  /** Null when no SMTP relay is configured: mail is then kept in the outbox. */
  mailer: Mailer | null;
  /** Absent: the system clock (defaulted once, by createActivities). */
  now?: Clock;
  /** The worker's own metrics (worker-metrics.ts); absent: recorded nowhere. */
  metrics?: WorkerMetrics;
}

/**
 * What one activity factory receives: the repositories it names and the services it lists (the clock and the
 * metrics always), so a factory's signature says what it touches and a test hands it exactly that.
 */
export type DepsOf<R extends keyof Repositories, S extends 'config' | 'logger' | 'temporal' | 'mailer' = never> = {
  repos: Pick<Repositories, R>;
} & Pick<ActivityDeps, S | 'metrics'> & { now: Clock };
