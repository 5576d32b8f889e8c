import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config/config';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
export const TEST_OPERATOR_AUTHORIZATION = 'Bearer operator-webhook-test-value-0123456789';

/** A config for one test suite: its own database and task queue on the shared test servers. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  const suffix = randomBytes(4).toString('hex');
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    TEMPORAL_TASK_QUEUE: `test-${suffix}`,
    MONGODB_URI: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/',
    MONGODB_DB: `test_${suffix}`,
    JWT_SECRET: TEST_JWT_SECRET,
    OPERATOR_WEBHOOK_AUTHORIZATION: TEST_OPERATOR_AUTHORIZATION,
    ...overrides,
  });
}

export function randomSuffix(): string {
  return randomBytes(4).toString('hex');
}

/**
 * Outbound webhooks that suit a test: loopback receivers allowed, short timeouts, and retries of 100 ms, then
 * 300 ms, while less than 1.5 s of delays have passed (6 retries).
 */
export const FAST_OUTBOUND_ENV = {
  OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK: 'true',
  OUTBOUND_WEBHOOKS_TIMEOUT_MS: '1000',
  OUTBOUND_WEBHOOKS_RETRY_BASE_MS: '100',
  OUTBOUND_WEBHOOKS_RETRY_CAP_MS: '300',
  OUTBOUND_WEBHOOKS_RETRY_WINDOW_MS: '1500',
};
