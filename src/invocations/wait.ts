import { WorkflowFailedError, type Client } from '@temporalio/client';
import { isTerminalStatus } from '../skills/invocation-status';
import { InvocationRepository, settledHere, type InvocationRecord } from '../store/invocations';
import { invocationRun } from '../temporal/clients/skill-invocation';

export const isTerminal = (r: InvocationRecord) => isTerminalStatus(r.status);

/**
 * Waits up to `seconds` for the invocation to reach a terminal status and returns the record as it then is,
 * as soon as it is: a terminal write in this process (a worker in the API process, a cancel here) ends the wait
 * at once; else the wait long-polls Temporal for the run's close (the run's last step makes the record terminal
 * just before it closes) and then reads the record once. Meanwhile it re-reads the record, less often as time
 * passes (at most once a second): with a model configured the run stores the deterministic draft (completed)
 * and goes on with the model's rewrite, so a completed record comes long before the run's close.
 */
export async function waitForTerminal(
  client: Client,
  invocations: InvocationRepository,
  record: InvocationRecord,
  seconds: number,
): Promise<InvocationRecord> {
  const deadline = Date.now() + seconds * 1000;
  if (isTerminal(record)) return record;
  // Whichever comes first: a terminal write in this process, or the run's close (then the record is terminal).
  const controller = new AbortController();
  const unsubscribe = settledHere.subscribe(record._id, () => controller.abort());
  let closed: Awaited<ReturnType<typeof runClosed>>;
  try {
    [closed] = await Promise.all([
      runClosed(client, record.workflowId, deadline, controller.signal).finally(() => controller.abort()),
      untilTerminalRead(invocations, record, deadline, controller),
    ]);
  } finally {
    unsubscribe();
  }
  let current = (await invocations.getFinished(record.project, record._id)) ?? record;
  if (closed === 'unknown') {
    // Temporal did not answer: re-read the record, less often as time passes.
    for (let wait = 50; !isTerminal(current) && Date.now() < deadline; wait = Math.min(wait * 2, 1_000)) {
      await new Promise((r) => setTimeout(r, Math.min(wait, Math.max(0, deadline - Date.now()))));
      current = (await invocations.get(record.project, record._id)) ?? current;
    }
  }
  return current;
}

/** Re-reads the record until it is terminal (then wakes the wait), the wait ends, or the deadline passes. */
async function untilTerminalRead(
  invocations: InvocationRepository,
  record: InvocationRecord,
  deadline: number,
  controller: AbortController,
): Promise<void> {
  for (let pause = 100; !controller.signal.aborted && Date.now() < deadline; pause = Math.min(pause * 2, 1_000)) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(pause, Math.max(0, deadline - Date.now())));
      function done() {
        clearTimeout(timer);
        controller.signal.removeEventListener('abort', done);
        resolve();
      }
      controller.signal.addEventListener('abort', done, { once: true });
    });
    if (controller.signal.aborted) return;
    const current = await invocations.get(record.project, record._id).catch(() => null);
    if (current && isTerminal(current)) controller.abort();
  }
}

/** Long-polls the run's close event: 'closed', 'deadline', or 'unknown' when Temporal cannot say. */
async function runClosed(
  client: Client,
  workflowId: string,
  deadline: number,
  signal: AbortSignal,
): Promise<'closed' | 'deadline' | 'unknown'> {
  try {
    await client.connection.withDeadline(deadline, () =>
      client.connection.withAbortSignal(signal, () => invocationRun(client, workflowId).result()),
    );
    return 'closed';
  } catch (err) {
    if (err instanceof WorkflowFailedError) return 'closed'; // cancelled, terminated, timed out
    // Woken by a terminal write here, or out of time: the record read that follows says the rest.
    if (signal.aborted || Date.now() >= deadline - 5) return 'deadline';
    return 'unknown'; // not reachable, or no run (an unconfirmed start): the record must be read instead
  }
}
