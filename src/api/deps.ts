import type { ApiTemporalHandle } from '../temporal/client';
import type { EventIntake } from '../billing-intake/accept-event';
import type { DeadLetterService } from '../billing-intake/dead-letters';
import type { DeliveryLog } from '../billing-intake/delivery-log';
import type { EventForwarder } from '../billing-intake/event-forwarder';
import type { Config } from '../config/config';
import type { InvocationService } from '../invocations/invoke';
import type { Logger } from '../logging/logger';
import type { Repositories } from '../store/repositories';
import type { AppCache } from './access/app-cache';
import type { McpSessionPool } from './agents/mcp/session-pool';
import type { Clock } from '../config/clock';
import type { OutboundService } from '../outbound/service';
import type { QueueBacklogReader } from '../temporal/queue-backlog';

/** What the HTTP layer needs, built once by compose.ts (for server.ts, the tests and the benchmarks). */
export interface AppDeps {
  config: Config;
  logger: Logger;
  repos: Repositories;
  /** `starter`: see TemporalHandle in src/temporal/client.ts (eager skill starts when a worker runs in this process). */
  temporal: Pick<ApiTemporalHandle, 'client' | 'connection' | 'starter' | 'relay'>;
  /** The relay from the webhook inbox to the subscriber workflows; the composition root starts and stops it. */
  forwarder: EventForwarder;
  intake: EventIntake;
  /** The event log's writer: every webhook delivery and what became of it (written in batches after the answer). */
  deliveryLog: DeliveryLog;
  /** The invocations' one front door: invoke, get, wait, follow, cancel, and the one limit on open streams. */
  invocations: InvocationService;
  deadLetters: DeadLetterService;
  outbound: OutboundService;
  /** The task queues' backlog (Temporal's figures), for /readyz, /metrics and the console. */
  queueBacklog: Pick<QueueBacklogReader, 'read'>;
  /** One per process, shared so rotating or deleting an app here takes effect here at once. */
  appCache: AppCache;
  /** The MCP sessions of this process, bounded per caller; the composition root closes them on shutdown. */
  mcpSessions: McpSessionPool;
  /** Injected clock so tests can pin time-dependent answers. */
  now: Clock;
}
