/**
 * The servers a bench run owns: an in-memory Temporal dev server (headless) and a MongoDB wire-protocol server
 * (mongod if installed, else FerretDB on SQLite) in a temporary folder, both on loopback; plus the workflow
 * bundle, built once per run. stop() takes everything down and removes the folder.
 */
import { bundleWorkflowCode, Runtime } from '@temporalio/worker';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMongo, startTemporal, type RunningServer } from '../../scripts/stack/servers';

/** What a benchmark knows about the run it is part of. */
export interface RunContext {
  /** Epoch ms by which the whole run should be done; a benchmark that can scale its work down uses it. */
  deadline: number;
}

export interface BenchStack {
  temporalAddress: string;
  mongoUri: string;
  mongoKind: 'mongod' | 'secantusd';
  workflowBundlePath: string;
  dataDir: string;
  stop(): Promise<void>;
}

const noop = () => undefined;
const quiet = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };

export async function startBenchStack(): Promise<BenchStack> {
  // The SDK's core runtime logs to stderr by default; the table is the output here.
  Runtime.install({ logger: quiet });
  const dataDir = mkdtempSync(join(tmpdir(), 'skills-billing-bench-'));
  const started: RunningServer[] = [];
  const stop = async () => {
    for (const s of started.reverse()) await s.stop().catch(noop);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const [temporal, mongo] = await Promise.all([
      startTemporal({
        dataDir: join(dataDir, 'temporal'),
        persistent: false,
        headless: true,
        // Off by default in the server: lets a completed workflow task carry its new activity tasks back to the
        // worker (eager activity execution) instead of queueing them.
        dynamicConfig: { 'system.enableActivityEagerExecution': true },
      }).then((t) => (started.push(t), t)),
      startMongo({ dataDir: join(dataDir, 'mongo') }).then((m) => (started.push(m), m)),
    ]);
    const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../../src/workflows'), logger: quiet });
    const workflowBundlePath = join(dataDir, 'workflow-bundle.js');
    writeFileSync(workflowBundlePath, code);
    return { temporalAddress: temporal.address, mongoUri: mongo.uri, mongoKind: mongo.kind, workflowBundlePath, dataDir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
