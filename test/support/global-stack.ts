/**
 * Mocha global fixture for integration tests: one real Temporal dev server and one real MongoDB-wire server
 * for the whole run, on free loopback ports, stopped afterwards. Their addresses reach the tests through
 * process.env. Set TEMPORAL_ADDRESS / MONGODB_URI to use servers that are already running instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMongo, startTemporal, type RunningServer } from '../../scripts/stack/servers';

const started: RunningServer[] = [];
let dataDir: string | null = null;

export async function mochaGlobalSetup(): Promise<void> {
  dataDir = mkdtempSync(join(tmpdir(), 'skills-billing-test-'));
  const [temporal, mongo] = await Promise.all([
    process.env.TEMPORAL_ADDRESS
      ? null
      : startTemporal({
          dataDir: join(dataDir, 'temporal'),
          persistent: false,
          headless: true,
          // A low history threshold makes continue-as-new happen within a test's worth of events.
          dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 120 },
        }),
    process.env.MONGODB_URI ? null : startMongo({ dataDir: join(dataDir, 'mongo'), cacheSizeMb: 128 }),
  ]);
  if (temporal) {
    started.push(temporal);
    process.env.TEMPORAL_ADDRESS = temporal.address;
  }
  if (mongo) {
    started.push(mongo);
    process.env.MONGODB_URI = mongo.uri;
  }
  process.env.TEST_DATA_DIR = dataDir;
}

export async function mochaGlobalTeardown(): Promise<void> {
  for (const s of started.reverse()) await s.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
