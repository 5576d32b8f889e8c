import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the bytes the
 * base64 after `whsec_` encodes. Several signatures are joined by spaces (the current secret and, during a
 * rotation's overlap, the previous one), and a receiver accepts the message if any of them matches.
 */
export const SECRET_PREFIX = 'whsec_';

/** A fresh endpoint secret: 32 random bytes (the specification asks for 24 to 64). */
export function generateEndpointSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64')}`;
}

export function signatureHeader(secrets: string[], id: string, timestampSeconds: number, body: string): string {
  return secrets.map((s) => signatureOf(s, id, timestampSeconds, body)).join(' ');
}

/**
 * The `webhook-id` of an event sent to an endpoint: derived from both, so a retry, a re-dispatch after a crash
 * and a manual redelivery all carry the same id and receivers can deduplicate on it.
 */
export function messageIdFor(endpointId: string, eventId: string): string {
  return `msg_${createHash('sha256').update(`${endpointId}\n${eventId}`, 'utf8').digest('base64url').slice(0, 32)}`;
}

/** The secrets that sign now: the current one and, during a rotation's overlap, the previous one. */
export function signingSecrets(
  ep: { secret: string; previousSecret: string | null; previousSecretValidUntil: Date | null },
  now: Date,
): string[] {
  return ep.previousSecret && ep.previousSecretValidUntil && ep.previousSecretValidUntil > now
    ? [ep.secret, ep.previousSecret]
    : [ep.secret];
}
