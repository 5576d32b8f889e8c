import type { Client } from '@temporalio/client';
import type { Effect } from '../billing/effects';
import type { BillingEvent } from '../billing/provider-events';
import type { BillingScope } from '../billing/subscriber-id';
import { DeadLetterRepository, type DeadLetterRecord, type DeadLetterStatus } from '../store/dead-letters';
import type { SubscriberMessage } from '../contracts/workflows/billing-subscriber';
import { isPermanentRefusal } from '../temporal/failures';
import { signalSubscriberWorkflow } from '../temporal/clients/billing-subscriber';
import { systemClock, type Clock } from '../config/clock';

export type RetryOutcome =
  | { outcome: 'retried'; record: DeadLetterRecord }
  | { outcome: 'not_found' }
  | { outcome: 'not_parked'; record: DeadLetterRecord }
  | { outcome: 'refused'; record: DeadLetterRecord; reason: string };

export type DiscardOutcome =
  { outcome: 'discarded'; record: DeadLetterRecord } | { outcome: 'not_found' } | { outcome: 'not_parked'; record: DeadLetterRecord };

/**
 * Whether a retry of the record can succeed, and why not: what the console offers (Retry, or Discard with a
 * reason) follows this.
 */
export function retryability(record: Pick<DeadLetterRecord, 'stage' | 'status' | 'subscriberId'>): {
  retryable: boolean;
  why: string | null;
} {
  if (record.stage === 'intake')
    return {
      retryable: false,
      why: 'A body that conflicts with the first one accepted under its event id is never applied: the first body stands. Discard it once looked at.',
    };
  if (record.status !== 'parked') return { retryable: false, why: `Already ${record.status}.` };
  if (!record.subscriberId) return { retryable: false, why: 'It names no subscriber to hand it back to.' };
  return { retryable: true, why: null };
}

/**
 * What operators do with dead letters (the API and the CLI call this): list a scope's, retry one once its
 * cause is fixed, or discard one that no retry can help (with a reason, kept on the record). A retry hands the work back to the subscriber's workflow: the event again (relay, apply) or
 * the effect to carry out again (effect). Both are harmless twice: events apply once, effects are idempotent.
 */
export class DeadLetterService {
  constructor(
    private readonly deadLetters: DeadLetterRepository,
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly now: Clock = systemClock,
  ) {}

  list(
    scope: BillingScope,
    opts: { status?: DeadLetterStatus; limit: number; after?: { parkedAt: Date; id: string } },
  ): Promise<DeadLetterRecord[]> {
    return this.deadLetters.list(scope, opts);
  }

  async discard(id: string, reason: string, by: string): Promise<DiscardOutcome> {
    const record = await this.deadLetters.get(id);
    if (!record) return { outcome: 'not_found' };
    const at = this.now();
    if (!(await this.deadLetters.discard(id, reason, by, at))) return { outcome: 'not_parked', record };
    return { outcome: 'discarded', record: { ...record, status: 'discarded', discardedAt: at, discardReason: reason, discardedBy: by } };
  }

  async retry(id: string): Promise<RetryOutcome> {
    const record = await this.deadLetters.get(id);
    if (!record) return { outcome: 'not_found' };
    // A conflicting redelivery is evidence, not work: the event id was applied with its first body.
    if (record.stage === 'intake')
      return {
        outcome: 'refused',
        record,
        reason: 'a body that conflicts with the first one accepted under its event id is never applied',
      };
    if (record.status !== 'parked' || !record.subscriberId) return { outcome: 'not_parked', record };
    try {
      await signalSubscriberWorkflow(
        this.client,
        this.taskQueue,
        { scope: record.scope, subscriberId: record.subscriberId },
        messageFor(record),
        this.now,
      );
    } catch (err) {
      if (!isPermanentRefusal(err)) throw err;
      const reason = `Temporal refused the retry: ${(err as Error).message}`;
      const { key, scope, stage, eventId, type, subscriberId, workflowId, payload } = record;
      await this.deadLetters.park({ key, scope, stage, eventId, type, subscriberId, workflowId, payload, reason }, this.now());
      return { outcome: 'refused', record: { ...record, reason, attempts: record.attempts + 1 }, reason };
    }
    await this.deadLetters.markRetried(id, this.now());
    return { outcome: 'retried', record: { ...record, status: 'retried', retriedAt: this.now() } };
  }
}

/** The message a retry sends to the subscriber's workflow. */
export function messageFor(record: Pick<DeadLetterRecord, 'stage' | 'key' | 'payload'>): SubscriberMessage {
  const payload = JSON.parse(record.payload) as unknown;
  if (record.stage === 'effect') {
    const { effect, message } = payload as { effect: Effect; message: SubscriberMessage | null };
    return { kind: 'redo', deadLetterKey: record.key, effect, message };
  }
  // An apply-stage record holds the message the reducer refused: a provider event, or a merge between records.
  const kind = (payload as { kind?: unknown }).kind;
  if (record.stage === 'apply' && (kind === 'mergeInto' || kind === 'absorb' || kind === 'eventRef')) return payload as SubscriberMessage;
  return { kind: 'event', event: payload as BillingEvent };
}
