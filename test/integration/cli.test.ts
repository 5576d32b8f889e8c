import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { verifyToken } from '../../src/api/auth';
import { startHarness, type Harness } from '../support/harness';
import { envelope, providerEvent } from '../support/provider-events';
import { randomSuffix } from '../support/config';

const CLI = join(__dirname, '..', '..', 'src', 'cli.js');

describe('operator CLI (against the real store)', () => {
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    h = await startHarness();
    env = {
      ...process.env,
      LOG_LEVEL: 'silent',
      TEMPORAL_ADDRESS: h.config.temporal.address,
      MONGODB_URI: h.config.mongo.uri,
      MONGODB_DB: h.config.mongo.dbName,
      JWT_SECRET: h.config.jwt.secret!,
      PUBLIC_BASE_URL: h.baseUrl,
    };
  });
  after(async () => h?.close());

  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });

  it('lists its commands', () => {
    const res = cli('help');
    assert.equal(res.status, 0);
    for (const name of ['mint-token', 'connect-app', 'rotate-app-authorization', 'billing-check', 'setup-temporal']) assert.match(res.stdout, new RegExp(name));
    assert.equal(cli('no-such-command').status, 2);
  });

  it('mint-token prints a token the API accepts', async () => {
    const res = cli('mint-token', '--sub', 'alice', '--projects', 'p1,p2', '--hours', '1');
    assert.equal(res.status, 0, res.stderr);
    const principal = verifyToken(res.stdout.trim(), h.config.jwt);
    assert.deepEqual(principal.projects, ['p1', 'p2']);
    const api = await h.request('GET', '/v1/agents/p1/skills', { token: res.stdout.trim() });
    assert.equal(api.status, 404, 'authenticated (the project simply does not exist)');
  });

  it('connect-app prints the webhook URL and a one-time authorization that the receiver accepts; rotation too', async () => {
    const slug = `cli-${randomSuffix()}`;
    const res = cli('connect-app', '--slug', slug, '--name', 'CLI app');
    assert.equal(res.status, 0, res.stderr);
    const url = /Webhook URL:\s+(\S+)/.exec(res.stdout)![1]!;
    const authorization = /Authorization header:\s+(\S+)/.exec(res.stdout)![1]!;
    assert.equal(url, `${h.baseUrl}/api/saas/iap/billingprovider/webhook?app=${slug}`);
    const post = (value: string) =>
      h.request('POST', url.slice(h.baseUrl.length), { body: envelope(providerEvent('TEST', 'u', { at: Date.now() })), headers: { Authorization: value } });
    assert.equal((await post(authorization)).status, 200);
    assert.equal(cli('connect-app', '--slug', slug, '--name', 'again').status, 1, 'an existing slug is refused');

    const rotated = cli('rotate-app-authorization', '--slug', slug);
    assert.equal(rotated.status, 0, rotated.stderr);
    const next = /Authorization header:\s+(\S+)/.exec(rotated.stdout)![1]!;
    assert.notEqual(next, authorization);
    assert.equal((await post(next)).status, 200);
    assert.equal((await post(authorization)).status, 200, 'the previous value works during the grace period');
  });

  it('billing-check agrees on an empty scope and reports a mismatch', async () => {
    const ok = cli('billing-check', '--scope', 'app:nothing-here');
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /agree/);
    await h.db.collection('billing_metrics').insertOne({ _id: 'app:skewed' as never, mrrMicros: 5_000_000, activeSubscriptions: 0, activeTrials: 0, flaggedCustomers: 0, scheduledDowngrades: 0, seq: 1, updatedAt: new Date() });
    const bad = cli('billing-check', '--scope', 'app:skewed');
    assert.equal(bad.status, 1);
    assert.match(bad.stdout, /MISMATCH/);
  });

  it('rejects bad arguments with a message', () => {
    const res = cli('connect-app', '--slug', 'Bad Slug', '--name', 'x');
    assert.equal(res.status, 1);
    assert.match(res.stderr, /--slug must match/);
  });
});
