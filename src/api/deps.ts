import type { Client, Connection } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { EventForwarder } from '../billing-intake/event-forwarder';
import type { Config } from '../config';
import type { Logger } from '../logger';

/** What the HTTP layer needs, injected by server.ts (production) or by tests. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  db: Db;
  /** `starter`: see TemporalHandle in src/temporal.ts (eager skill starts when a worker runs in this process). */
  temporal: { client: Client; connection: Connection; starter?: Client | null };
  /** The relay from the webhook inbox to the subscriber workflows; the composition root starts and stops it. */
  forwarder: EventForwarder;
  /** Injected clock so tests can pin time-dependent answers. */
  now?: () => Date;
}
