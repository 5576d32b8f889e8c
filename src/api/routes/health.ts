import Router from '@koa/router';
import type { AppDeps } from '../deps';
import type { AppMetrics } from '../http/metrics';
import { digestMatches, digestOf } from '../../auth/webhook-authorization';
import { HttpProblem, problemBody } from '../http/problem';
import { backlogReport } from '../../temporal/queue-backlog';

const READY_TIMEOUT_MS = 2_000;

/** Liveness, readiness (MongoDB and Temporal both answer), and Prometheus metrics. */
export function healthRoutes(deps: AppDeps, metrics: AppMetrics): Router {
  const router = new Router();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const [mongo, temporal] = await Promise.all([
      probe(() => deps.repos.ping()),
      probe(() =>
        deps.temporal.connection.withDeadline(Date.now() + READY_TIMEOUT_MS, () => deps.temporal.connection.healthService.check({})),
      ),
    ]);
    const checks = { mongodb: mongo, temporal };
    // Backpressure that says so: a backlog never makes the API unready (it keeps accepting, and loses nothing),
    // but the answer tells how far behind the effects are.
    const backlog = backlogReport(
      { events: deps.forwarder.stats().owed, lagMs: deps.forwarder.lagMs() },
      temporal.status === 'up' ? await deps.queueBacklog.read() : {},
    );
    const down = Object.entries(checks)
      .filter(([, c]) => c.status !== 'up')
      .map(([name]) => name);
    if (down.length === 0) {
      ctx.body = { status: 'ready', checks, backlog };
    } else {
      ctx.status = 503;
      ctx.type = 'application/problem+json';
      ctx.set('Retry-After', '5');
      ctx.body = problemBody(503, 'not_ready', `Not ready: ${down.join(' and ')} did not answer`, undefined, { checks });
    }
  });

  // Behind a bearer token when METRICS_TOKEN is set (compared in constant time over digests, like webhook values).
  const metricsDigest = deps.config.metrics.token ? digestOf(deps.config.metrics.token).toString('hex') : null;
  router.get('/metrics', async (ctx) => {
    if (metricsDigest !== null && !digestMatches(/^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1] ?? '', metricsDigest)) {
      throw new HttpProblem(401, 'unauthorized', 'GET /metrics needs Authorization: Bearer with the METRICS_TOKEN value', {
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      });
    }
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });

  return router;
}

async function probe(fn: () => Promise<unknown>): Promise<{ status: 'up' | 'down'; ms: number }> {
  const started = Date.now();
  try {
    await withTimeout(fn(), READY_TIMEOUT_MS);
    return { status: 'up', ms: Date.now() - started };
  } catch {
    return { status: 'down', ms: Date.now() - started };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timeout')), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e as Error);
      },
    );
  });
}
