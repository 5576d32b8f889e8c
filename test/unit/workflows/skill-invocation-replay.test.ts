import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/repo-root';

/**
 * skillInvocation against saved histories, with no server: the run recorded before local activities (every
 * step a remote activity) must still replay on the patched code, and so must a run of today's shape
 * (re-recorded by the skills API suite with UPDATE_HISTORIES=1). With a model: a run recorded before the
 * draft-first patch (by the code of 3a7a0e1), and one of today's shape (re-recorded by the skills-llm suite with
 * UPDATE_HISTORIES=1).
 */
describe('skillInvocation replay', function () {
  this.timeout(30_000);
  const replay = async (file: string) => {
    const saved = JSON.parse(readFileSync(join(repoRoot(), 'test/fixtures/histories', file), 'utf8')) as {
      workflowId: string;
      history: unknown;
    };
    await Worker.runReplayHistory(
      { workflowsPath: require.resolve('../../../src/workflows') },
      historyFromJSON(saved.history),
      saved.workflowId,
    );
  };

  it('a run recorded before the local-activity patch (retrieve, draft, store as remote activities)', () =>
    replay('skill-invocation-before-local-activities.json'));

  it("a run of today's shape (eager start, one workflow task, three local activities)", () => replay('skill-invocation.json'));

  it('a run with a model recorded before the draft-first patch (one remote activity drafting and rewriting, then the store)', () =>
    replay('skill-invocation-model-before-draft-first.json'));

  it("a run with a model of today's shape (the draft stored first, the rewrite as a remote activity, version 2 stored)", () =>
    replay('skill-invocation-model.json'));
});
