import { WorkflowFailedError, type Client } from '@temporalio/client';
import { isTerminalStatus } from '../skills/invocation-status';
import { InvocationRepository, settledHere, type InvocationRecord } from '../store/invocations';
import { invocationRun } from '../temporal/clients/skill-invocation';

export const isTerminal = (r: InvocationRecord) => isTerminalStatus(r.status);

/**
 * Waits up to `seconds` for the invocation to reach a terminal status and returns the record as it then is,
 * as soon as it is: a terminal write in this process (a worker in the API process, a cancel here) ends the wait
 * at once; else the wait long-polls Temporal for the run's close (the run's last step makes the record terminal
 * just before it closes) and then reads the record once. Only when Temporal cannot say does it re-read the
 * record, less often as time passes.
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
    closed = await runClosed(client, record.workflowId, deadline, controller.signal);
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
