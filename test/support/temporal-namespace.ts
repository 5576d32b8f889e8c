import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporalConnectionOptions } from '../../src/temporal/connection';
import { registerSearchAttributes } from '../../src/temporal/client';
import { testConfig } from './config';
import { eventually } from './eventually';

/**
 * A Temporal namespace of its own on the test run's server, with the service's search attributes, for a test file
 * whose workflow ids would meet another file's: ids such as the operator scope's totals workflow
 * (`billing-metrics/operator`) are one per namespace, and the first file to start one keeps it on its own task
 * queue and database, so another file's operator events would be counted there (or, once that file's worker has
 * gone, not at all). Pass the name to startHarness as TEMPORAL_NAMESPACE.
 */
export async function isolatedNamespace(name: string): Promise<string> {
  const connection = await Connection.connect(temporalConnectionOptions(testConfig().temporal));
  try {
    try {
      await connection.workflowService.registerNamespace({
        namespace: name,
        workflowExecutionRetentionPeriod: msToTs('1 day'),
      });
    } catch (err) {
      // 6 = ALREADY_EXISTS: a file run again against the same server.
      if ((err as { code?: number }).code !== 6) throw err;
    }
    // The frontend learns of a new namespace from its cache, refreshed every few seconds.
    await eventually(
      () =>
        registerSearchAttributes(connection, name).then(
          () => true,
          () => false,
        ),
      (ok) => ok,
      { what: `namespace ${name} registered with the search attributes`, timeoutMs: 60_000, intervalMs: 500 },
    );
    await eventually(
      async () => (await connection.operatorService.listSearchAttributes({ namespace: name })).customAttributes ?? {},
      (found) => ['BillingScope', 'SubscriberId', 'Project'].every((k) => k in found),
      { what: `search attributes of ${name} listed`, timeoutMs: 60_000, intervalMs: 500 },
    );
    return name;
  } finally {
    await connection.close();
  }
}
