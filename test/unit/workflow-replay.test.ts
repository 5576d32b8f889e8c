import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root';

/**
 * Replays saved histories against today's workflow code, with no server: a change that would make running
 * workflows non-deterministic fails here. Refresh the file with `UPDATE_HISTORIES=1 npm test` when a change
 * is deliberately incompatible (and version it with patching first).
 */
describe('workflow replay', function () {
  this.timeout(30_000);

  it('billingSubscriber replays a recorded lifecycle (trial, renewals, billing issue, cancellations)', async () => {
    const saved = JSON.parse(readFileSync(join(repoRoot(), 'test/fixtures/histories/billing-subscriber.json'), 'utf8')) as {
      workflowId: string;
      history: unknown;
    };
    // Throws DeterminismViolationError (failing the test) if the code no longer produces the recorded commands.
    await Worker.runReplayHistory(
      { workflowsPath: require.resolve('../../src/workflows') },
      historyFromJSON(saved.history),
      saved.workflowId,
    );
  });
});
