import { CancellationScope, log, patched, setCurrentDetails } from '@temporalio/workflow';

/**
 * Runs an entity workflow so that a cancellation request (Temporal UI "Request Cancellation", `temporal workflow
 * cancel`) does not end it: an entity's run holds events that were acknowledged and not yet applied, and the
 * durable timer of its next change; cancelling would drop both until its next event. The request is recorded in
 * the history, said in the workflow's details and the worker's log, and otherwise ignored: to stop a subscriber,
 * terminate it (the next event resumes it from its stored record).
 *
 * Runs recorded before this guard ended on a cancellation request; their replay must do the same, so the
 * decision is a patch asked only when a request arrives (a run that never gets one records nothing).
 */
export async function shieldedFromCancellation(what: string, run: () => Promise<void>): Promise<void> {
  let work: CancellationScope | null = null;
  CancellationScope.current().cancelRequested.catch(() => {
    if (patched('cancel-guard')) {
      const note = `${what}: cancellation was requested at ${new Date().toISOString()} and is ignored (an entity workflow keeps applying its events); terminate it to stop it`;
      log.warn(note);
      setCurrentDetails(note);
      return;
    }
    work?.cancel();
  });
  await CancellationScope.nonCancellable(() => {
    work = new CancellationScope();
    return work.run(run);
  });
}
