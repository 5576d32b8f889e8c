/**
 * A time-skipping Temporal test environment on Temporal's Java test server (see
 * scripts/stack/java-test-server.ts): workflow timers of months fire in milliseconds, so tests of period ends
 * need no near-future timestamps and no waiting.
 */
import { temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ensureJavaTestServer } from '../../scripts/stack/java-test-server';
import { SEARCH_ATTRIBUTES } from '../../src/contracts/workflows/search-attributes';

export async function startTimeSkipping(): Promise<TestWorkflowEnvironment> {
  const path = ensureJavaTestServer();
  const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
  // The workflows set these, as on the dev server (scripts/stack/servers.ts registers them there).
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      Object.values(SEARCH_ATTRIBUTES).map((key) => [key.name, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]),
    ),
  });
  return env;
}
