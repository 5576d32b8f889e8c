/**
 * A worker's share of the model per project: at most `perProject` rewrites of one project talk to the model at once,
 * and at most `waitingPerProject` more wait for their turn. A project that starts more is told so at once (its
 * extra invocations keep their deterministic draft) instead of holding the worker's activity slots, so one
 * project's burst never delays another's rewrite: each project has at most `perProject` requests at the model, so
 * another project's request waits behind at most that many of each. Projects with nothing in flight hold no entry.
 */
export interface ProjectGate {
  /**
   * A turn for `project`: resolves with its release once it has one; with `busy` when too many of its rewrites wait
   * already; with `gave-up` when `signal` aborts first (a deadline or a cancellation: the caller tells which).
   */
  acquire(project: string, signal: AbortSignal): Promise<{ release: () => void } | { refused: 'busy' | 'gave-up' }>;
  /** Rewrites at the model and waiting, per project (for logs and tests). */
  load(project: string): { running: number; waiting: number };
}

export function createProjectGate(perProject: number, waitingPerProject: number): ProjectGate {
  const running = new Map<string, number>();
  const waiting = new Map<string, { grant: () => void }[]>();

  const releaser = (project: string) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiting.get(project)?.shift();
      if (waiting.get(project)?.length === 0) waiting.delete(project);
      // The turn passes straight to the first waiter: the running count stays as it is.
      if (next) return next.grant();
      const n = (running.get(project) ?? 1) - 1;
      if (n > 0) running.set(project, n);
      else running.delete(project);
    };
  };

  return {
    acquire(project, signal) {
      if (signal.aborted) return Promise.resolve({ refused: 'gave-up' as const });
      const now = running.get(project) ?? 0;
      if (now < perProject) {
        running.set(project, now + 1);
        return Promise.resolve({ release: releaser(project) });
      }
      const queue = waiting.get(project) ?? [];
      if (queue.length >= waitingPerProject) return Promise.resolve({ refused: 'busy' as const });
      waiting.set(project, queue);
      return new Promise((resolve) => {
        const onAbort = () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          if (queue.length === 0 && waiting.get(project) === queue) waiting.delete(project);
          resolve({ refused: 'gave-up' });
        };
        const waiter = {
          grant: () => {
            signal.removeEventListener('abort', onAbort);
            resolve({ release: releaser(project) });
          },
        };
        queue.push(waiter);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    load(project) {
      return { running: running.get(project) ?? 0, waiting: waiting.get(project)?.length ?? 0 };
    },
  };
}
