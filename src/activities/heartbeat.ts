import { Context } from '@temporalio/activity';

/** The running activity's context, or null when the function is called outside a worker (tests, scripts). */
export function currentActivity(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

/**
 * Heartbeats while `work` runs. Temporal then notices within the heartbeat timeout that the worker running the
 * attempt died, instead of at the end of its start-to-close timeout, and a cancellation reaches the activity
 * (only a heartbeat's answer carries one).
 */
export async function whileHeartbeating<T>(activity: Context | null, work: () => Promise<T>): Promise<T> {
  if (!activity) return work();
  activity.heartbeat();
  const every = Math.max(500, Math.floor((activity.info.heartbeatTimeoutMs ?? 10_000) / 4));
  const timer = setInterval(() => activity.heartbeat(), every);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
