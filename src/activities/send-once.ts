import { ApplicationFailure } from '@temporalio/common';
import type { Logger } from '../logging/logger';
import type { Mailer } from '../mail/mailer';
import type { MailOutbox, OutboxRecord } from '../store/mail-outbox';
import type { WorkerMetrics } from './worker-metrics';

/**
 * How long a claim to send keeps others off: longer than any attempt can last (the sending activities'
 * start-to-close timeouts are at most a minute, and the SMTP stage timeouts end a send well inside it), so a claim
 * past it is one whose attempt is over.
 */
export const MAIL_CLAIM_LEASE_MS = 75_000;

/**
 * Sends a mail recorded in the outbox at least once and, short of a crash between the send and its record, once:
 * with no SMTP relay it is kept in the outbox; otherwise the outbox hands the right to send it to one attempt for
 * a lease (claim before send), a refused or failed send gives the claim back so the retry sends, and a claim left
 * by an attempt that crashed is taken again once its lease is over (its deterministic Message-ID makes the rare
 * second copy recognisable). An attempt that finds the claim held fails, so the activity retries after it.
 */
export async function sendOnce(
  deps: { outbox: MailOutbox; mailer: Mailer | null; logger: Logger; now: () => Date; metrics?: WorkerMetrics },
  mail: OutboxRecord,
): Promise<'sent' | 'kept' | 'already_sent'> {
  const { outbox, mailer, logger, now } = deps;
  const key = mail._id;
  if (mail.status === 'sent') return 'already_sent';
  if (!mailer) {
    await outbox.mark(key, 'kept', now());
    logger.info({ to: mail.to, subject: mail.subject }, 'no SMTP relay configured: mail kept in the outbox');
    return 'kept';
  }
  const claim = await outbox.claim(key, now(), MAIL_CLAIM_LEASE_MS);
  if (claim.status === 'sent') return 'already_sent';
  if (claim.status === 'kept') return 'kept';
  if (claim.status === 'held') {
    const leaseEndsInMs = Math.max(1000, claim.claimedAt.getTime() + MAIL_CLAIM_LEASE_MS - now().getTime() + 1000);
    logger.warn({ key, to: mail.to, leaseEndsInMs }, 'another attempt holds the claim to send this mail; retrying once its lease is over');
    throw ApplicationFailure.create({
      message: `mail ${key} is claimed by another attempt; retried in ${Math.round(leaseEndsInMs / 1000)} s, when the claim's lease is over`,
      type: 'MailClaimHeld',
      nextRetryDelay: leaseEndsInMs,
    });
  }
  try {
    await mailer.send(mail);
  } catch (err) {
    deps.metrics?.mailFailed(key.slice(0, key.indexOf(':')) || 'mail');
    await outbox.release(key);
    throw err;
  }
  await outbox.mark(key, 'sent', now());
  return 'sent';
}
