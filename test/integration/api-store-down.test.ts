/** The API process starts while MongoDB is down, reports itself not ready, and becomes ready once it is up. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startMongo, type RunningMongo } from '../../scripts/stack/servers';
import { TEST_JWT_SECRET } from '../support/config';
import { eventually } from '../support/eventually';

describe('API start-up with the store down (real process, real store started later)', function () {
  this.timeout(90_000);
  let api: ChildProcess | null = null;
  let mongo: RunningMongo | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'store-down-'));
  after(async () => {
    api?.kill('SIGKILL');
    await mongo?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /healthz and a 503 /readyz naming mongodb, then 200 once the store is up', async () => {
    const [storePort, apiPort] = [await freePort(), await freePort()];
    api = spawn(process.execPath, [join(__dirname, '..', '..', 'src', 'api', 'server.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        PORT: String(apiPort),
        MONGODB_URI: `mongodb://127.0.0.1:${storePort}/?serverSelectionTimeoutMS=1000`,
        MONGODB_DB: `store_down_${storePort}`,
        TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS!,
        JWT_SECRET: TEST_JWT_SECRET,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const base = `http://127.0.0.1:${apiPort}`;
    await eventually(
      () => fetch(`${base}/healthz`).then((r) => r.status),
      (s) => s === 200,
      { what: 'the API to listen', timeoutMs: 30_000 },
    );
    const notReady = await fetch(`${base}/readyz`);
    assert.equal(notReady.status, 503);
    const body = (await notReady.json()) as { checks?: Record<string, { status: string }> };
    assert.notEqual(body.checks?.mongodb?.status, 'up', JSON.stringify(body));
    assert.equal(api.exitCode, null, 'still running');

    mongo = await startMongo({ dataDir, port: storePort, cacheSizeMb: 64 });
    assert.equal(mongo.uri, `mongodb://127.0.0.1:${storePort}/`);
    await eventually(
      () => fetch(`${base}/readyz`).then(async (r) => ({ status: r.status, body: await r.text() })),
      (r) => r.status === 200,
      { what: 'the API to become ready', timeoutMs: 45_000, intervalMs: 250 },
    );
  });
});
