/**
 * One project's burst does not hold up another project's invocation in Temporal's skills task queue: with 30
 * invocations of one project waiting there (no worker ran while they were started), an invocation of another
 * project completes among the first, not after the 30. Invocations carry their project as the queue's fairness key
 * (src/temporal/fairness.ts), and the test server runs with fairness on (scripts/stack/servers.ts). First in, first
 * out would complete the burst's first: the check below would see them.
 */
import assert from 'node:assert/strict';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { projectToken } from '../support/tokens';
import { loadDemoWith, PROJECT, startIncidentRca } from './skills-helpers';

const BURST = 30;
const CALM = 'calm-web';

describe("skills fairness: a burst of one project does not hold up another project's invocation", () => {
  let h: Harness;
  const token = projectToken([PROJECT, CALM]);
  before(async () => {
    h = await startHarness();
    await loadDemoWith(h, [CALM]);
  });
  after(async () => h?.close());

  const start = (project: string) => startIncidentRca(h, token, project);
  const completed = async (project: string, ids: string[]) => {
    let n = 0;
    for (const id of ids) {
      const res = await h.request('GET', `/v1/agents/${project}/invocations/${id}`, { token });
      if (res.body.status === 'completed') n++;
    }
    return n;
  };

  it("a calm project's invocation completes before most of a busy project's waiting ones", async function () {
    this.timeout(300_000);
    const burst: string[] = [];
    for (let i = 0; i < BURST; i++) burst.push(await start(PROJECT));
    const calm = await start(CALM);

    await h.startWorker();
    await eventually(
      () => completed(CALM, [calm]),
      (n) => n === 1,
      { what: "the calm project's invocation to complete", timeoutMs: 120_000, intervalMs: 20 },
    );
    const before = await completed(PROJECT, burst);
    assert.ok(before < BURST / 2, `the calm project's invocation waited behind ${before} of the busy project's ${BURST}`);
    // And the burst is served in full all the same.
    await eventually(
      () => completed(PROJECT, burst),
      (n) => n === BURST,
      { what: "every one of the busy project's invocations", timeoutMs: 240_000 },
    );
  });
});
