import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps } from './deps';
import { createMetrics, registerEventLogMetrics } from './http/metrics';
import { errorMiddleware } from './middleware/errors';
import { requestContext } from './middleware/request-context';
import { noSniff } from './middleware/no-sniff';
import { buildOpenApiDocument } from './openapi';
import { healthRoutes } from './routes/health';
import { projectRoutes } from './routes/projects';
import { skillCatalogRoutes } from './routes/skills';
import { documentRoutes } from './routes/documents';
import { invocationRoutes } from './routes/invocations';
import { invocationEventRoutes } from './routes/invocation-events';
import { mcpRoutes } from './routes/mcp';
import { a2aRoutes } from './routes/a2a';
import { appRoutes } from './routes/apps';
import { outboundRoutes, registerOutboundMetrics } from './routes/outbound';
import { webhookRoutes } from './routes/webhooks';
import { billingDashboardRoutes } from './routes/billing-dashboard';
import { deadLetterRoutes } from './routes/dead-letters';
import { eventLogRoutes } from './routes/event-log';
import { dashboardRoutes } from './routes/dashboard';
import { consoleRoutes } from './routes/console';

/**
 * Builds the Koa application from composed dependencies (compose.ts). Never listens: server.ts does (and starts
 * the event relay); tests serve `app.callback()` themselves.
 */
export function createApp(deps: AppDeps) {
  const app = new Koa({ proxy: deps.config.http.trustProxy });
  const metrics = createMetrics(
    { parkedDeadLetters: () => deps.repos.deadLetters.parkedByScope(), owedTotals: () => deps.repos.owedTotals.countByScope() },
    { owed: () => deps.forwarder.stats().owed, lagMs: () => deps.forwarder.lagMs() },
    deps.queueBacklog,
  );
  registerOutboundMetrics(metrics.registry, deps.repos.outboundCounters);
  registerEventLogMetrics(metrics.registry, deps.deliveryLog);
  const routers: Router[] = [
    healthRoutes(deps, metrics),
    projectRoutes(deps),
    documentRoutes(deps),
    skillCatalogRoutes(deps),
    invocationRoutes(deps, metrics),
    invocationEventRoutes(deps),
    mcpRoutes(deps),
    a2aRoutes(deps),
    appRoutes(deps),
    outboundRoutes(deps),
    webhookRoutes(deps, metrics),
    billingDashboardRoutes(deps),
    deadLetterRoutes(deps),
    eventLogRoutes(deps),
    consoleRoutes(deps),
    dashboardRoutes(),
  ];

  const spec = buildOpenApiDocument(deps.config.http.publicBaseUrl);
  const docs = new Router();
  docs.get('/openapi.json', (ctx) => {
    ctx.body = spec;
  });
  routers.push(docs);

  // The access line is written outside the error handler, so it records the status the client got.
  app.use(requestContext(deps.logger, metrics.observeRequest));
  app.use(noSniff);
  app.use(errorMiddleware(deps.logger));
  // What escapes every middleware (a socket error while answering) is one JSON log line, not Koa's stack printer.
  app.on('error', (err: Error & { status?: number; expose?: boolean }) => {
    if (err.expose && typeof err.status === 'number' && err.status < 500) return;
    deps.logger.warn(
      { err: { name: err.name, message: err.message, code: (err as { code?: unknown }).code } },
      'error outside a request handler',
    );
  });
  for (const router of routers) {
    app.use(router.routes());
    // Not thrown: the router then sets Allow, and the error middleware turns the bare 405/501 into a problem.
    app.use(router.allowedMethods());
  }
  return { app, metrics, routers };
}
