import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../logging/logger';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * Routes the Temporal SDK's own logs (worker state, workflow and activity logs) into the process's JSON logger and,
 * with `metricsAddress` (WORKER_METRICS_ADDRESS), serves the SDK's metrics and the worker's own
 * (activities/worker-metrics.ts) for Prometheus at http://{address}/metrics.
 */
export function installSdkLogging(logger: Logger, metricsAddress: string | null = null): void {
  const sdk = logger.child({ component: 'temporal-sdk' });
  Runtime.install({
    ...(metricsAddress
      ? {
          telemetryOptions: {
            metrics: {
              prometheus: { bindAddress: metricsAddress, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true },
            },
          },
        }
      : {}),
    logger: new DefaultLogger('INFO', (entry) => {
      // The bundler reports webpack's whole build summary (dozens of lines) at info on every start: debug here.
      const level = entry.level === 'INFO' && entry.message.includes('\n') ? 'debug' : LEVELS[entry.level];
      sdk[level]({ ...entry.meta }, entry.message);
    }),
  });
}
