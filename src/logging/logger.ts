import { pino, type Logger } from 'pino';
import type { Config } from '../config/config';

export type { Logger };

/** Structured JSON logs on stdout; one logger per process, children carry request ids. */
export function createLogger(config: Pick<Config, 'logLevel'>, name: string): Logger {
  return pino({
    name,
    level: config.logLevel,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'authorization', '*.authorization'], censor: '[redacted]' },
  });
}
