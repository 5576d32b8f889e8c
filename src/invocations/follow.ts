import { isFinalRevision, settledHere, type InvocationRecord, type InvocationRepository } from '../store/invocations';
import { isTerminal } from './wait';

/** Re-reads slow down to this between changes; a terminal write in this process wakes the follower at once. */
const MAX_POLL_MS = 1_000;

/** What identifies a state of an invocation record: its write sequence and its status. */
export const versionOf = (r: InvocationRecord) => `${r.seq}.${r.status}`;

/** Terminal, and no later version of its result will follow: nothing about the invocation changes any more. */
export const isSettled = (r: InvocationRecord) => isTerminal(r) && isFinalRevision(r);

/**
 * Yields an invocation's record each time it changes (its current state first; a new version of a completed
 * result is a change), ending with the settled one (terminal, final version) or when `signal` aborts or `until`
 * passes. Records after the first are read with the repository's `get` (a completed one with its result).
 * InvocationService.follow is its one user: the streaming adapters (Server-Sent Events, MCP progress, A2A streams)
 * follow invocations through the service.
 */
export async function* followInvocation(
  invocations: InvocationRepository,
  start: InvocationRecord,
  opts: { signal?: AbortSignal; until?: number } = {},
): AsyncGenerator<InvocationRecord> {
  let record = start;
  let last: string | null = null;
  for (
    let pause = 50;
    !opts.signal?.aborted && (opts.until === undefined || Date.now() < opts.until);
    pause = Math.min(pause * 2, MAX_POLL_MS)
  ) {
    if (versionOf(record) !== last) {
      last = versionOf(record);
      pause = 50;
      yield record;
    }
    if (isSettled(record)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        opts.signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, pause);
      const unsubscribe = settledHere.subscribe(record._id, done);
      opts.signal?.addEventListener('abort', done, { once: true });
    });
    record = (await invocations.get(record.project, record._id)) ?? record;
  }
}
