import assert from 'node:assert/strict';
import { eventually } from '../support/eventually';
import { rewrite, startFakeLlm, type FakeLlm } from '../support/fake-llm';
import { startHarness, type Harness } from '../support/harness';
import { projectToken } from '../support/tokens';
import { loadDemoWith, PROJECT, startIncidentRca } from './skills-helpers';

const BUSY = PROJECT;
const QUIET = 'beta-web';
/** How long the model takes per section, here: long enough for the burst's rewrites to overlap. */
const MODEL_MS = 500;

/**
 * Two projects share one worker and one model. The first starts a burst of invocations, the second one invocation:
 * the first gets its share of the model (LLM_REWRITES_PER_PROJECT at a time, LLM_WAITING_PER_PROJECT waiting; the
 * rest keep their draft, with a note), and the second's rewrite runs beside it instead of behind it.
 */
describe('the model shared by projects (one worker, one endpoint)', function () {
  this.timeout(120_000);
  let h: Harness;
  let llm: FakeLlm;
  const token = projectToken([BUSY, QUIET]);
  let inFlight = 0;
  let mostInFlight = 0;

  before(async () => {
    llm = await startFakeLlm();
    h = await startHarness({
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'fake-model',
      LLM_TIMEOUT_MS: '5000',
      LLM_REWRITES_PER_PROJECT: '1',
      LLM_WAITING_PER_PROJECT: '1',
    });
    // The demo project twice: as itself, and copied under another name.
    await loadDemoWith(h, [QUIET]);
    await h.startWorker();
    llm.handle(async (req) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      // The model's time to answer (the fake server's latency, not a wait of the test).
      await new Promise((r) => setTimeout(r, MODEL_MS));
      inFlight--;
      return rewrite(req);
    });
  });
  after(async () => {
    await h?.close();
    await llm?.close();
  });

  const start = (project: string) => startIncidentRca(h, token, project);
  const final = (project: string, id: string) =>
    eventually(
      () => h.request('GET', `/v1/agents/${project}/invocations/${id}`, { token }),
      (r) => r.status === 200 && r.body.revision?.final === true,
      { timeoutMs: 60_000, intervalMs: 100, what: `${project}'s invocation ${id} to have its final version` },
    );

  it("a project's burst gets its share of the model, and another project's rewrite runs beside it", async () => {
    const burst = await Promise.all([1, 2, 3, 4].map(() => start(BUSY)));
    const quiet = await start(QUIET);
    const order: string[] = [];
    const results = await Promise.all([
      ...burst.map((id) => final(BUSY, id).then((r) => (order.push(id), r.body.result))),
      final(QUIET, quiet).then((r) => (order.push(quiet), r.body.result)),
    ]);
    const quietResult = results.at(-1)!;
    const burstResults = results.slice(0, -1);

    assert.equal(quietResult.generator, 'llm:fake-model', JSON.stringify(quietResult.notes));
    const rewritten = burstResults.filter((r) => r.generator === 'llm:fake-model');
    const kept = burstResults.filter((r) => r.generator === 'deterministic');
    assert.equal(rewritten.length, 2, 'one at the model and one waiting');
    assert.equal(kept.length, 2, 'the rest keep their draft');
    for (const r of kept)
      assert.match(r.notes.join(' '), /The model was busy with this project's other invocations \(1 at a time per worker, 1 waiting/);
    assert.ok(mostInFlight <= 2, `at most one request per project at the model at once (saw ${mostInFlight})`);
    // The quiet project's rewrite did not queue behind the busy one's second (waiting) rewrite.
    const waited = Math.max(...burst.filter((_, i) => burstResults[i]!.generator === 'llm:fake-model').map((id) => order.indexOf(id)));
    assert.ok(order.indexOf(quiet) < waited, `order of final versions: ${order.join(', ')} (the quiet project's: ${quiet})`);
  });
});
