import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** Deterministic per logical message, so a resend after a crash is recognisable as the same mail. */
  messageId: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export const SMTP_TIMEOUT_MS = 15_000;

/** An SMTP mailer for `SMTP_URL` (smtp:// or smtps://, credentials in the URL), or null when none is configured. */
export function createMailer(smtpUrl: string | null, from: string): Mailer | null {
  if (!smtpUrl) return null;
  // Every SMTP stage ends well inside the sending activity's one-minute timeout, so a send never outlives the
  // attempt that made it (a retry would otherwise race a send still in flight).
  const url = new URL(smtpUrl);
  for (const option of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) {
    if (!url.searchParams.has(option)) url.searchParams.set(option, String(SMTP_TIMEOUT_MS));
  }
  const transport = nodemailer.createTransport(url.toString());
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, messageId: mail.messageId });
    },
    close: () => transport.close(),
  };
}
