import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/repo-root';

const DIR = join(repoRoot(), 'test/fixtures/histories');

/**
 * Replays saved histories against today's workflow code, with no server: a change that would make running
 * workflows non-deterministic fails here. There is one history per version of each billing workflow, named for
 * the patch it was recorded under (`billing-subscriber-{patch}.json`, `billing-metrics-{patch}.json`; `unpatched`
 * is older than any patch), since a run recorded under each may still be running. `UPDATE_HISTORIES=1 npm test`
 * records the current versions' (billing-delivery.test.ts); older files are kept.
 */
describe('workflow replay', function () {
  this.timeout(30_000);

  const files = readdirSync(DIR).filter((f) => /^billing-(subscriber|metrics)-.+\.json$/.test(f));

  it('has a history for each version, the oldest included', () => {
    for (const oldest of ['billing-subscriber-unpatched.json', 'billing-metrics-resume-from-stored-totals.json'])
      assert.ok(files.includes(oldest), `${oldest} in ${files.join(', ')}`);
    assert.ok(files.length >= 5, files.join(', '));
  });

  for (const file of files) {
    it(`replays ${file}`, async () => {
      const saved = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { workflowId: string; history: unknown };
      // Throws DeterminismViolationError (failing the test) if the code no longer produces the recorded commands.
      await Worker.runReplayHistory(
        { workflowsPath: require.resolve('../../../src/workflows') },
        historyFromJSON(saved.history),
        saved.workflowId,
      );
    });
  }
});
