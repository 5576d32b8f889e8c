import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from './logger';

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** Routes the Temporal SDK's own logs (worker state, workflow and activity logs) into the process's JSON logger. */
export function installSdkLogging(logger: Logger): void {
  const sdk = logger.child({ component: 'temporal-sdk' });
  Runtime.install({
    logger: new DefaultLogger('INFO', (entry) => {
      // The bundler reports webpack's whole build summary (dozens of lines) at info on every start: debug here.
      const level = entry.level === 'INFO' && entry.message.includes('\n') ? 'debug' : LEVELS[entry.level];
      sdk[level]({ ...entry.meta }, entry.message);
    }),
  });
}
