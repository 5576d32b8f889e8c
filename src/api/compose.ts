import type { Db } from 'mongodb';
import { EventIntake } from '../billing-intake/accept-event';
import { DeadLetterService } from '../billing-intake/dead-letters';
import { DeliveryLog } from '../billing-intake/delivery-log';
import { EventForwarder } from '../billing-intake/event-forwarder';
import type { Config } from '../config/config';
import { InvocationService } from '../invocations/invoke';
import { StreamBudget } from '../invocations/stream-budget';
import { OutboundService } from '../outbound/service';
import { RateLimiter } from '../contracts/rate-limit';
import type { Logger } from '../logging/logger';
import { createRepositories } from '../store/repositories';
import { QueueBacklogReader } from '../temporal/queue-backlog';
import { AppCache } from './access/app-cache';
import { McpSessionPool } from './agents/mcp/session-pool';
import type { AppDeps } from './deps';
import { systemClock, type Clock } from '../config/clock';

/**
 * The API process's composition: the repositories, the relay and the application services over one store and
 * one Temporal client, each built once. server.ts uses it; so do the tests and benchmarks that serve the app
 * themselves. The caller starts and stops the relay (`forwarder`).
 */
export function composeApi(input: { config: Config; logger: Logger; db: Db; temporal: AppDeps['temporal']; now?: Clock }): AppDeps {
  const { config, logger, temporal } = input;
  const now = input.now ?? systemClock;
  const repos = createRepositories(input.db);
  const forwarder = new EventForwarder({ repos, client: temporal.relay, taskQueue: config.temporal.taskQueue, logger });
  return {
    config,
    logger,
    repos,
    temporal,
    forwarder,
    intake: new EventIntake(repos.webhookEvents, forwarder, repos.deadLetters, now),
    deliveryLog: new DeliveryLog(repos.eventLog, config.eventLog, logger),
    invocations: new InvocationService({
      invocations: repos.invocations,
      keys: repos.idempotency,
      projects: repos.projects,
      documents: repos.documents,
      limiter: new RateLimiter(config.skills.invocationsPerMinute, 60_000),
      client: temporal.client,
      // Read per start: a worker in this process sets it once it runs (src/worker/in-api.ts).
      eagerClient: () => temporal.starter,
      taskQueue: config.temporal.skillsTaskQueue,
      entitlements: config.skills.entitlements,
      streams: new StreamBudget(config.agents.streamsPerCaller, config.agents.streamsMax),
      now,
    }),
    deadLetters: new DeadLetterService(repos.deadLetters, temporal.client, config.temporal.taskQueue, now),
    outbound: new OutboundService({
      apps: repos.apps,
      endpoints: repos.outboundEndpoints,
      deliveries: repos.outboundDeliveries,
      temporal: temporal.client,
      config,
      now,
    }),
    appCache: new AppCache(repos.apps, () => now().getTime()),
    mcpSessions: new McpSessionPool({
      perCaller: config.agents.mcpSessionsPerCaller,
      max: config.agents.mcpSessionsMax,
      idleMs: config.agents.mcpSessionIdleMs,
    }),
    queueBacklog: new QueueBacklogReader(temporal.client, config.temporal.namespace, {
      billing: config.temporal.taskQueue,
      skills: config.temporal.skillsTaskQueue,
    }),
    now,
  };
}
