import { createServer, type Server } from 'node:http';
import type { State } from '@temporalio/worker';

/** What the health endpoint needs of the process's worker (src/worker/worker.ts's ServiceWorker). */
export interface WatchedWorker {
  readonly workers: ReadonlyMap<string, { getState(): State }>;
  getState(): State;
}

/**
 * The worker process's own liveness (WORKER_HEALTH_ADDRESS): GET /healthz answers 200 while every role's worker
 * runs and 503 once one has failed or is stopping; a crashed or hung process answers nothing. It is served from
 * the process's event loop, so an answer also says that loop still turns. The dev stack's supervisor, the compose
 * file's healthcheck and a Kubernetes liveness probe read it.
 */
export async function serveWorkerHealth(address: string, worker: WatchedWorker): Promise<{ close(): Promise<void> }> {
  const sep = address.lastIndexOf(':');
  const host = address.slice(0, sep);
  const port = Number(address.slice(sep + 1));
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/healthz') {
      res.writeHead(404, { 'Content-Type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'only GET /healthz is served here' }));
      return;
    }
    const roles = Object.fromEntries([...worker.workers].map(([role, w]) => [role, w.getState()]));
    const state = worker.getState();
    const ok = state === 'RUNNING';
    res.writeHead(ok ? 200 : 503, { 'Content-Type': ok ? 'application/json' : 'application/problem+json' });
    res.end(
      JSON.stringify(
        ok
          ? { status: 'live', roles }
          : { type: 'about:blank', title: 'Service Unavailable', status: 503, detail: `worker is ${state}`, roles },
      ),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
