import { ApplicationFailure } from '@temporalio/common';
import type { Logger } from '../logging/logger';
import type { Mailer } from '../mail/mailer';
import type { MailOutbox, OutboxRecord } from '../store/mail-outbox';
import type { WorkerMetrics } from './worker-metrics';
import type { Clock } from '../config/clock';

/**
 * How long a claim to send keeps other attempts off unless renewed, and how often the attempt sending renews it.
 * A worker that dies mid-send stops renewing, so a retry takes the mail over within the lease (its heartbeat
 * timeout has Temporal retry sooner; the retry waits for the lease's end). A send that outlasts the lease keeps it
 * by renewing, however slow the relay.
 */
export const MAIL_CLAIM = { leaseMs: 20_000, renewEveryMs: 5_000 };

/**
 * Sends a mail recorded in the outbox at least once and, short of a crash between the send and its record, once:
 * with no SMTP relay it is kept in the outbox; otherwise the outbox hands the right to send it to one attempt for
 * a lease (claim before send), a refused or failed send gives the claim back so the retry sends, and a claim left
 * by an attempt that crashed is taken again once its lease is over (its deterministic Message-ID makes the rare
 * second copy recognisable). An attempt that finds the claim held fails, so the activity retries after it.
 */
export async function sendOnce(
  deps: { outbox: MailOutbox; mailer: Mailer | null; logger: Logger; now: Clock; metrics?: WorkerMetrics; claim?: typeof MAIL_CLAIM },
  mail: OutboxRecord,
): Promise<'sent' | 'kept' | 'already_sent'> {
  const { outbox, mailer, logger, now } = deps;
  const { leaseMs, renewEveryMs } = deps.claim ?? MAIL_CLAIM;
  const key = mail._id;
  if (mail.status === 'sent') return 'already_sent';
  if (!mailer) {
    await outbox.mark(key, 'kept', now());
    logger.info({ to: mail.to, subject: mail.subject }, 'no SMTP relay configured: mail kept in the outbox');
    return 'kept';
  }
  const claim = await outbox.claim(key, now(), leaseMs);
  if (claim.status === 'sent') return 'already_sent';
  if (claim.status === 'kept') return 'kept';
  if (claim.status === 'held') {
    const leaseEndsInMs = Math.max(1000, claim.claimedAt.getTime() + leaseMs - now().getTime() + 1000);
    logger.warn({ key, to: mail.to, leaseEndsInMs }, 'another attempt holds the claim to send this mail; retrying once its lease is over');
    throw ApplicationFailure.create({
      message: `mail ${key} is claimed by another attempt; retried in ${Math.round(leaseEndsInMs / 1000)} s, when the claim's lease is over`,
      type: 'MailClaimHeld',
      nextRetryDelay: leaseEndsInMs,
    });
  }
  try {
    await whileKeepingClaim(deps, key, claim.claimedAt, renewEveryMs, () => mailer.send(mail));
  } catch (err) {
    deps.metrics?.mailFailed(key.slice(0, key.indexOf(':')) || 'mail');
    await outbox.release(key);
    throw err;
  }
  await outbox.mark(key, 'sent', now());
  return 'sent';
}

/**
 * Runs `work` while renewing the claim every `everyMs`; a renewal under way is awaited before returning, so it
 * cannot land after the send is marked (and then report the claim as taken over).
 */
async function whileKeepingClaim(
  deps: { outbox: MailOutbox; logger: Logger; now: Clock },
  key: string,
  claimedAt: Date,
  everyMs: number,
  work: () => Promise<void>,
): Promise<void> {
  let held: Date | null = claimedAt;
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    if (held === null) return;
    running = deps.outbox.renew(key, held, deps.now()).then(
      (renewed) => {
        // Our lease ran out (the renewals failed for longer than it) and another attempt took the mail: nothing
        // can stop a send under way, so the recipient may get the copy twice, with the same Message-ID.
        if (renewed === null) deps.logger.warn({ key }, 'the claim to send this mail was taken over while this attempt was sending it');
        held = renewed;
      },
      // The store is unreachable: try again at the next tick, while the lease lasts.
      (err: unknown) => deps.logger.warn({ key, err }, 'could not renew the claim to send this mail'),
    );
  }, everyMs);
  try {
    await work();
  } finally {
    clearInterval(timer);
    await running;
  }
}
