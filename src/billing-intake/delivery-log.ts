import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import type { BillingScope } from '../billing/subscriber-id';
import type { Logger } from '../logging/logger';
import {
  COUNTED_PREFIX,
  eventLogFacets,
  UNATTRIBUTED,
  type EventLogBucket,
  type EventLogOutcome,
  type EventLogRepository,
  type NewEventLogEntry,
} from '../store/event-log';

/** What the receiver knows of one delivery once it has answered it. */
export interface DeliveryOutcome {
  endpoint: 'app' | 'operator';
  /** The `app` parameter as given; null on the operator's receiver or when missing. */
  app: string | null;
  /** The scope the delivery is for; null when no app can be named (an unknown slug, no `app` parameter). */
  scope: BillingScope | null;
  at: Date;
  status: number;
  outcome: EventLogOutcome;
  reason: string | null;
  detail?: string | null;
  /** Refused before anyone was authorized: counted per minute instead of one entry each. */
  unauthorized?: boolean;
  eventId?: string | null;
  type?: string | null;
  subscriberId?: string | null;
  /** The other ids the event names for its customer, so a filter by any of them finds it (a few at most). */
  otherIds?: string[];
  workflowId?: string | null;
  deadLetterId?: string | null;
  bodyBytes?: number | null;
  /** An authorized body that was refused, as text (cut to EXCERPT_CHARS here). */
  body?: string | null;
}

const FLUSH_INTERVAL_MS = 250;
/** Entries waiting per bucket; past it a bucket's newest are dropped (and counted) until the next flush. */
const MAX_PENDING_PER_BUCKET = 2_000;
/** Distinct counted refusals (bucket, reason, minute) waiting at once. */
const MAX_PENDING_COUNTED = 5_000;
const EXCERPT_CHARS = 4_096;
const MINUTE_MS = 60_000;

/**
 * The event log's writer in the API process. The receiver hands it each delivery after answering it (a call
 * that only appends to memory); every 250 ms it writes each bucket's entries in one bulk write. So recording
 * costs the acknowledgement nothing and can never fail or delay it; a crash loses at most the last moment's log
 * entries, never an event (the inbox has those). What waits is bounded per bucket, so one app's flood cannot
 * crowd out another's entries, and refusals before authorization are counted per minute (one entry, a count).
 */
export class DeliveryLog {
  private readonly pending = new Map<EventLogBucket, NewEventLogEntry[]>();
  private readonly counted = new Map<string, NewEventLogEntry>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private dropped = 0;
  private stopped = false;

  constructor(
    private readonly repo: EventLogRepository,
    private readonly caps: { maxPerScope: number; maxUnattributed: number },
    private readonly logger: Logger,
  ) {}

  private readonly refusals = new Map<string, number>();

  /** For /metrics: refusals by receiver and reason, and log entries dropped (a full queue, a failed write), since start. */
  stats(): { refusals: { endpoint: string; reason: string; count: number }[]; dropped: number } {
    return {
      refusals: [...this.refusals].map(([key, count]) => {
        const [endpoint, reason] = key.split('|') as [string, string];
        return { endpoint, reason, count };
      }),
      dropped: this.dropped,
    };
  }

  record(d: DeliveryOutcome): void {
    this.start();
    if (d.outcome === 'rejected') {
      // Reasons are a fixed list (store/event-log.ts), so the label set stays small.
      const key = `${d.endpoint}|${d.reason}`;
      this.refusals.set(key, (this.refusals.get(key) ?? 0) + 1);
    }
    const bucket: EventLogBucket = d.scope ?? UNATTRIBUTED;
    const entry: NewEventLogEntry = {
      _id: `evl_${ulid(d.at.getTime())}`,
      bucket,
      at: d.at,
      outcome: d.outcome,
      status: d.status,
      reason: d.reason,
      detail: d.detail ? d.detail.slice(0, 1_000) : null,
      endpoint: d.endpoint,
      app: d.app === null ? null : d.app.slice(0, 64),
      eventId: d.eventId ? d.eventId.slice(0, 512) : null,
      type: d.type ? d.type.slice(0, 100) : null,
      subscriberId: d.subscriberId ?? null,
      workflowId: d.workflowId ?? null,
      deadLetterId: d.deadLetterId ?? null,
      bodyBytes: d.bodyBytes ?? null,
      bodyExcerpt: d.body ? d.body.slice(0, EXCERPT_CHARS) : null,
      count: 1,
      lastAt: d.at,
      facets: [],
    };
    entry.facets = eventLogFacets(entry, (d.otherIds ?? []).slice(0, 4));
    if (d.unauthorized) {
      const minute = Math.floor(d.at.getTime() / MINUTE_MS);
      // Unattributed refusals are counted per reason alone (the entry names the first slug of its minute): a flood of
      // made-up slugs is one entry a minute too, not one per slug.
      const key = `${bucket}|${d.reason}|${minute}`;
      const known = this.counted.get(key);
      if (known) {
        known.count += 1;
        known.lastAt = d.at;
      } else if (this.counted.size < MAX_PENDING_COUNTED) {
        // The same id from every instance and every flush of this minute: they add to one entry.
        const digest = createHash('sha256').update(key).digest('hex').slice(0, 26);
        this.counted.set(key, { ...entry, _id: `${COUNTED_PREFIX}${digest}`, at: new Date(minute * MINUTE_MS) });
      } else this.dropped += 1;
      return;
    }
    const queue = this.pending.get(bucket) ?? [];
    if (queue.length >= MAX_PENDING_PER_BUCKET) {
      this.dropped += 1;
      return;
    }
    queue.push(entry);
    this.pending.set(bucket, queue);
  }

  /** Started by the first delivery; stop() writes what waits. */
  private start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops the timer and writes what waits. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Writes what waits now (one flush at a time; a caller waits for the one under way, then its own). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeAll());
    return this.flushing;
  }

  private async writeAll(): Promise<void> {
    const byBucket = new Map(this.pending);
    this.pending.clear();
    for (const entry of this.counted.values()) byBucket.set(entry.bucket, [...(byBucket.get(entry.bucket) ?? []), entry]);
    this.counted.clear();
    for (const [bucket, entries] of byBucket) {
      const cap = bucket === UNATTRIBUTED ? this.caps.maxUnattributed : this.caps.maxPerScope;
      try {
        await this.repo.write(bucket, entries, cap);
      } catch (err) {
        // A log entry is not worth a retry loop: the events themselves are in the inbox.
        this.dropped += entries.length;
        this.logger.warn({ err, bucket, entries: entries.length }, 'event log entries could not be written');
      }
    }
  }
}
