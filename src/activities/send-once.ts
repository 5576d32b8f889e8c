import type { Logger } from '../logger';
import type { Mailer } from '../mail';
import type { MailOutbox, OutboxRecord } from '../store/mail-outbox';

/**
 * Sends a mail recorded in the outbox at most once, whoever retries: with no SMTP relay it is kept in the
 * outbox; otherwise the outbox hands the right to send it to one attempt (claim before send), a refused or failed
 * send gives the claim back so the retry sends, and a crash in the middle of a send leaves the claim in doubt,
 * after which the mail is not sent again (at most once; its deterministic Message-ID makes a copy recognisable).
 */
export async function sendOnce(
  deps: { outbox: MailOutbox; mailer: Mailer | null; logger: Logger; now: () => Date },
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
  const claim = await outbox.claim(key, now());
  if (claim === 'sent') return 'already_sent';
  if (claim === 'kept') return 'kept';
  if (claim === 'in_doubt') {
    logger.warn({ key, to: mail.to }, 'an earlier attempt claimed this mail and did not finish; not sending it twice (check the SMTP relay log)');
    return 'already_sent';
  }
  try {
    await mailer.send(mail);
  } catch (err) {
    await outbox.release(key);
    throw err;
  }
  await outbox.mark(key, 'sent', now());
  return 'sent';
}
