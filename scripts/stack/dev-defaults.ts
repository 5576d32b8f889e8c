/**
 * What `npm run dev` sets for development when neither the environment nor .env says otherwise, with the line it
 * prints at start-up for each, so nothing is changed silently. Pure.
 */
export function devDefaults(env: Readonly<Record<string, string>>): { set: Record<string, string>; notes: string[] } {
  const set: Record<string, string> = {};
  const notes: string[] = [];
  if (env.OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK === undefined) {
    // Outbound webhooks to a receiver on this machine (`npm run cli -- listen --forward-to …`); never in production.
    set.OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK = 'true';
    notes.push(
      'outbound webhooks may call receivers on this machine (http://127.0.0.1:…): OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK=true, for development only (set it to false in .env to refuse them)',
    );
  }
  return { set, notes };
}
