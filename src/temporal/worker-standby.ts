/**
 * A standby worker process (WORKER_STANDBY=true): the dev stack's supervisor (scripts/stack/supervisor.ts) keeps one
 * started beside the running worker, over an IPC channel. It loads, connects and creates its workers, which polls
 * nothing, says `standby-ready`, and waits; when the running worker exits the supervisor sends `serve` and this one
 * runs at once. A start costs seconds of CPU (modules, the workflow bundle in each role's workflow thread), which on
 * a starved machine took the restarted worker 8–24 s (bench/README.md, the soak); the standby has paid it before.
 */
export const STANDBY_READY = 'standby-ready';
export const STANDBY_SERVE = 'serve';

export interface Standby {
  /** Says the workers are created, then resolves once the supervisor says to serve. */
  ready(): Promise<void>;
}

/**
 * Listens for `serve` from the start (a message that finds no listener is lost), and ends the process if the
 * supervisor goes away or stops it while it waits: nothing would ever promote it.
 */
export function awaitPromotion(proc: NodeJS.Process = process): Standby {
  const send = proc.send?.bind(proc);
  if (!send) throw new Error('WORKER_STANDBY=true needs a supervisor that started this process with an IPC channel (npm run dev)');
  let serve!: () => void;
  const promoted = new Promise<void>((resolve) => (serve = resolve));
  const onMessage = (m: unknown) => {
    if (typeof m === 'object' && m !== null && (m as { type?: unknown }).type === STANDBY_SERVE) serve();
  };
  const quit = () => proc.exit(0);
  proc.on('message', onMessage);
  proc.on('disconnect', quit);
  proc.once('SIGTERM', quit);
  proc.once('SIGINT', quit);
  return {
    async ready() {
      send({ type: STANDBY_READY });
      await promoted;
      proc.off('message', onMessage);
      proc.off('disconnect', quit);
      proc.off('SIGTERM', quit);
      proc.off('SIGINT', quit);
      // Serving now: the channel must not keep the process alive once its workers have stopped.
      proc.channel?.unref();
    },
  };
}
