import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowBundlePath } from './bundle';
import { repoRoot } from './repo-root';

type History = temporal.api.history.v1.IHistory;

/** The id of the first patch a history recorded (its version of the workflow), if any. */
function patchOf(history: History): string | null {
  for (const e of history.events ?? []) {
    const data = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
    if (e.markerRecordedEventAttributes?.markerName === 'core_patch' && data)
      return (JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id;
  }
  return null;
}

/**
 * Replays a live history against today's code. A history that fails is saved to test-output/ (`name` in the file
 * name) for whoever reads the failure, since only that run produced it. With `fixture` (`billing-subscriber`,
 * `billing-metrics`) and UPDATE_HISTORIES=1, one that passes becomes the offline fixture of its workflow's current
 * version (test/unit/workflows/billing-replay.test.ts), named for the patch it recorded so earlier versions' files
 * stay.
 */
export async function replayLiveHistory(
  name: string,
  workflowId: string,
  history: History,
  options: { fixture?: string } = {},
): Promise<void> {
  try {
    await Worker.runReplayHistory({ workflowBundle: { codePath: await workflowBundlePath() } }, history, workflowId);
  } catch (err) {
    const dir = join(repoRoot(), 'test-output');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `replay-failure-${name}.json`);
    writeFileSync(file, historyToJSON(history));
    throw new Error(`${String(err)}\nthe history is in ${file}`);
  }
  if (options.fixture && process.env.UPDATE_HISTORIES === '1') {
    const dir = join(repoRoot(), 'test', 'fixtures', 'histories');
    mkdirSync(dir, { recursive: true });
    const file = `${options.fixture}-${patchOf(history) ?? 'unpatched'}.json`;
    writeFileSync(join(dir, file), JSON.stringify({ workflowId, history: JSON.parse(historyToJSON(history)) }));
  }
}
