import type { Logger } from '../logging/logger';
import type { RelayCheckpointRepository } from '../store/relay-checkpoints';
import type { WebhookEventRecord, WebhookEventRepository } from '../store/webhook-events';
import type { Clock } from '../config/clock';

/**
 * A checkpoint not refreshed for this long (five missed refreshes of the forwarder's, every 2 s) belongs to a dead
 * instance, and its events are relayed by the next recovery pass: at most 15 s after the death. Taking a slow peer
 * for dead costs only a second, harmless relay of its recent events, because a slow instance acknowledges nothing
 * until it has written its checkpoint again (CHECKPOINT_LEASE_MS).
 */
export const STALE_AFTER_MS = 10_000;
/**
 * A checkpoint this instance wrote less than this long ago, by its own monotonic clock from the moment the write was
 * sent, is still in the store: a peer takes it for dead only once the store's clock is STALE_AFTER_MS past its
 * heartbeat, which the store stamped no earlier than the write was sent. An event acknowledged within the lease was
 * stored before any peer's recovery read of this instance's events can start, so it is relayed either way. Past the
 * lease (the process stalled, or the store was slow to answer) the checkpoint is written again before acknowledging.
 * Half of STALE_AFTER_MS: the refresh every 2 s keeps it current, and the rest is margin for clock rates.
 */
export const CHECKPOINT_LEASE_MS = STALE_AFTER_MS / 2;
/** A dead instance's events are read back from the inbox this many at a time. */
const RECOVERY_PAGE = 500;

export interface RelayLedgerOptions {
  /**
   * The instance the ledger keeps accounts for: its events are the inbox records it `acceptedBy`, and the redelivered
   * ones it re-accepted last (`reacceptedBy`).
   */
  instanceId: string;
  checkpoints: Pick<RelayCheckpointRepository, 'save' | 'stale' | 'removeIfUnchanged' | 'remove'>;
  events: Pick<WebhookEventRepository, 'acceptedSince' | 'reacceptedSince'>;
  logger: Logger;
  now: Clock;
  /** A monotonic clock in ms, for the checkpoint's lease (default `performance.now`): a wall-clock step must not extend it. */
  monotonicMs?: () => number;
}

/**
 * What this API instance owes the subscriber workflows, and what it promises the store about it: its checkpoint,
 * "every event I accepted before T has reached its workflow". An event is owed from the moment its inbox insert
 * starts (`accepting`) until it is relayed or parked (`settle`), and the checkpoint never passes an event still
 * owed: T is the oldest receipt time owed (or now); a redelivery this instance acknowledged is owed from its own
 * receipt time (`reacceptedAt`). Nothing is written per event. When an instance dies, a peer finds its checkpoint
 * stale and re-forwards what it accepted or re-accepted since T (`recover`); relaying twice is harmless, since the
 * workflow skips event ids it has applied. Nothing is acknowledged unless the checkpoint is sure to be in the store
 * (`assureCheckpoint`): a peer that took this instance for dead while it stalled has removed it.
 */
export class RelayLedger {
  readonly instanceId: string;
  /** Inbox inserts under way (ticket → receipt time): the event may be stored before it is handed over. */
  private readonly inserting = new Map<number, Date>();
  private nextTicket = 0;
  /** Stored and handed to the relay, not yet relayed or parked: record id → receipt time. */
  private readonly unrelayed = new Map<string, Date>();
  private recovering: Promise<number> | null = null;
  private readonly monotonicMs: () => number;
  /** When the latest checkpoint write that succeeded was sent (monotonic ms); none yet: never. */
  private leaseFromMs = -Infinity;
  /** The checkpoint write `assureCheckpoint` waits for, shared by the acknowledgements waiting at once. */
  private renewal: Promise<void> | null = null;

  constructor(private readonly options: RelayLedgerOptions) {
    this.instanceId = options.instanceId;
    this.monotonicMs = options.monotonicMs ?? (() => performance.now());
  }

  /**
   * Called before the inbox insert: until `accepted(ticket)`, the checkpoint cannot pass `receivedAt`, so an
   * event stored just before this instance dies is still found by recovery.
   */
  accepting(receivedAt: Date): number {
    const ticket = this.nextTicket++;
    this.inserting.set(ticket, receivedAt);
    return ticket;
  }

  /** The insert is over (stored and owed, a duplicate, or failed). */
  accepted(ticket: number): void {
    this.inserting.delete(ticket);
  }

  /**
   * A stored event handed to the relay: owed until settled, from `receivedAt` (the receipt time by which recovery
   * finds it: `receivedAt` of a record this instance accepted first, `reacceptedAt` of one it re-accepted). Owing it
   * again keeps the first time.
   */
  owe(id: string, receivedAt: Date): void {
    if (!this.unrelayed.has(id)) this.unrelayed.set(id, receivedAt);
  }

  /** Relayed (or parked as a dead letter): no longer owed. */
  settle(id: string): void {
    this.unrelayed.delete(id);
  }

  /** How many stored events are owed. */
  get owed(): number {
    return this.unrelayed.size;
  }

  /** The owed events, id → receipt time (for reading back what the relay could not hold in memory). */
  owedEvents(): ReadonlyMap<string, Date> {
    return this.unrelayed;
  }

  /** Nothing owed and no insert under way: a stopping instance may drop its checkpoint. */
  get clear(): boolean {
    return this.unrelayed.size === 0 && this.inserting.size === 0;
  }

  /** The checkpoint as of `now`: the oldest receipt time still owed, or `now` when nothing is. */
  safeUntil(now: Date): Date {
    let safeUntil = now;
    for (const receivedAt of this.inserting.values()) if (receivedAt < safeUntil) safeUntil = receivedAt;
    for (const receivedAt of this.unrelayed.values()) if (receivedAt < safeUntil) safeUntil = receivedAt;
    return safeUntil;
  }

  /** How long the oldest owed event has waited to be relayed, in ms (0: nothing waits). */
  lagMs(now: number): number {
    let oldest = now;
    for (const at of this.unrelayed.values()) oldest = Math.min(oldest, at.getTime());
    return now - oldest;
  }

  /** Persists "everything accepted before T is relayed", T being the oldest event still owed. */
  async checkpoint(): Promise<void> {
    const sentMs = this.monotonicMs();
    await this.options.checkpoints.save(this.instanceId, this.safeUntil(this.options.now()));
    this.leaseFromMs = Math.max(this.leaseFromMs, sentMs);
  }

  /**
   * Resolves once this instance's checkpoint is sure to be in the store, with every event owed or being inserted
   * at or after it: at once within CHECKPOINT_LEASE_MS of the last write, else after writing it again (one write for
   * all who wait at once). The intake calls it after storing an event and before acknowledging it. Rejects when the
   * write fails, or twice took longer than the lease: the event is stored, unacknowledged, and comes again.
   */
  async assureCheckpoint(): Promise<void> {
    for (let writes = 0; this.monotonicMs() - this.leaseFromMs >= CHECKPOINT_LEASE_MS; writes++) {
      if (writes === 2) throw new Error('the relay checkpoint could not be written within its lease');
      this.renewal ??= this.checkpoint().finally(() => (this.renewal = null));
      await this.renewal;
    }
  }

  /**
   * At shutdown: with nothing owed the checkpoint is removed; otherwise it is written once more and left to go
   * stale, and a peer relays the rest.
   */
  async retire(): Promise<void> {
    await (this.clear ? this.options.checkpoints.remove(this.instanceId) : this.checkpoint());
  }

  /**
   * Re-forwards (through `relay`) what dead instances accepted or re-accepted since their last checkpoint, then
   * retires their checkpoints; returns how many events. A `relay` that rejects stops the pass and leaves that
   * checkpoint for the next one. One pass at a time: a call during a pass shares it.
   */
  recover(relay: (record: WebhookEventRecord) => Promise<void>): Promise<number> {
    this.recovering ??= (async () => {
      const { checkpoints, events, logger } = this.options;
      let forwarded = 0;
      try {
        const dead = await checkpoints.stale(STALE_AFTER_MS);
        for (const checkpoint of dead.filter((c) => c._id !== this.instanceId)) {
          const { _id: instance, safeUntil } = checkpoint;
          /** Relayed by the first read already: the instance accepted it first, since its checkpoint. */
          const readFirst = (r: WebhookEventRecord) => r.acceptedBy === instance && r.receivedAt >= safeUntil;
          const reads = [
            { read: events.acceptedSince.bind(events), at: (r: WebhookEventRecord) => r.receivedAt, skip: () => false },
            { read: events.reacceptedSince.bind(events), at: (r: WebhookEventRecord) => r.reacceptedAt!, skip: readFirst },
          ];
          for (const { read, at, skip } of reads) {
            // Page by page in time order, from the last page's last time on. The events of that millisecond come
            // again and are not relayed twice. A full page all in one millisecond cannot move the time on: that
            // millisecond is read again with twice the page, until it is read whole (else the pass would read the
            // same page forever).
            let limit = RECOVERY_PAGE;
            let boundary = new Set<string>();
            for (let since = safeUntil; ;) {
              const batch = await read(instance, since, limit);
              const todo = batch.filter((r) => !skip(r) && !boundary.has(r._id));
              for (const record of todo) await relay(record);
              forwarded += todo.length;
              if (batch.length < limit) break;
              const last = at(batch[batch.length - 1]!);
              const atLast = batch.filter((r) => at(r).getTime() === last.getTime()).map((r) => r._id);
              if (last.getTime() === since.getTime()) limit *= 2;
              else limit = RECOVERY_PAGE;
              boundary = new Set(last.getTime() === since.getTime() ? [...boundary, ...atLast] : atLast);
              since = last;
            }
          }
          await checkpoints.removeIfUnchanged(checkpoint);
          logger.info({ deadInstance: checkpoint._id, forwarded }, 'relayed the events a stopped API instance had accepted');
        }
        return forwarded;
      } finally {
        this.recovering = null;
      }
    })();
    return this.recovering;
  }

  /** The recovery pass under way, if any (a stopping forwarder lets it finish, within its bound). */
  get recovery(): Promise<number> | null {
    return this.recovering;
  }
}
