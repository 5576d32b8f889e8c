import { ConfigError, loadConfig } from '../config/config';
import { productionProblems } from '../config/production';
import { createLogger } from '../logging/logger';
import { ensureIndexes } from '../store/indexes';
import { connectStore } from '../store/mongo';
import { connectTemporalLazy } from '../temporal/client';
import { subscriberDetailsInterceptor } from '../temporal/clients/billing-subscriber';
import { installSdkLogging } from '../temporal/sdk-logging';
import { runWorkerInApi } from '../worker/in-api';
import { createApp } from './app';
import { composeApi } from './compose';
import { createHttpServer } from './http/http-server';

/** How long requests under way may take to finish at shutdown before their connections are closed. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Composition root of the API process: config, one Mongo client, one Temporal handle (its client, and the relay's
 * native client), then listen.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const unsafe = productionProblems(config);
  if (unsafe.length > 0) throw new ConfigError(unsafe);
  const logger = createLogger(config, 'api');
  // Lazy, like Temporal: with the store down the API still starts, /readyz answers 503 naming it, webhooks
  // answer 503 (the provider retries), and everything works once the store is back.
  const store = await connectStore(config.mongo.uri, config.mongo.dbName, 'api', { lazy: true });
  const indexes = retryInBackground(
    () => ensureIndexes(store.db, config.retention),
    (err) => logger.warn({ err: String(err) }, 'creating indexes failed (is MongoDB reachable?); retrying in 5 s'),
  );
  // Subscriber workflows the relay and dead-letter retries start carry console links (static details).
  const temporal = connectTemporalLazy(config.temporal, {
    interceptors: { workflow: [subscriberDetailsInterceptor(config.http.publicBaseUrl)] },
  });
  // The SDK's core runtime serves the relay's native connection, and the worker when it runs here too.
  installSdkLogging(logger);
  const worker = config.worker.inApi
    ? runWorkerInApi({
        config,
        db: store.db,
        logger,
        workflowBundlePath: config.worker.bundlePath ?? undefined,
        onStarter: (c) => (temporal.starter = c),
      })
    : null;
  const deps = composeApi({ config, logger, db: store.db, temporal });
  const { forwarder } = deps;
  const { app } = createApp(deps);
  await forwarder.start();

  const server = createHttpServer(app.callback());
  await new Promise<void>((resolve) => server.listen(config.http.port, config.http.host, resolve));
  const addr = server.address();
  logger.info({ address: typeof addr === 'object' && addr ? `http://${addr.address}:${addr.port}` : addr }, 'api listening');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api shutting down');
    indexes.stop();
    // Their streams would hold server.close open; closing them leaves their invocations running.
    await deps.mcpSessions.closeAll();
    // Requests under way get a grace period; an event stream or A2A stream a client keeps open would otherwise hold
    // the shutdown until it ends (its client reconnects to another instance with Last-Event-ID).
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await closed;
    clearTimeout(grace);
    await forwarder.stop();
    await deps.deliveryLog.stop();
    await worker?.stop();
    await Promise.allSettled([temporal.close(), store.close()]);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`api failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

/** Runs `fn` until it succeeds, every 5 s, without holding up start-up; stop() ends the retries. */
function retryInBackground(fn: () => Promise<void>, onError: (err: unknown) => void): { stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const attempt = () => {
    fn().catch((err: unknown) => {
      if (stopped) return;
      onError(err);
      timer = setTimeout(attempt, 5_000);
      timer.unref();
    });
  };
  attempt();
  return { stop: () => ((stopped = true), timer && clearTimeout(timer)) };
}
