import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyToken } from '../../src/api/access/auth';
import { COLLECTIONS } from '../../src/store/collections';
import { startHarness, type Harness, cliEnv } from '../support/harness';
import { envelope, providerEvent } from '../support/provider-events';
import { randomSuffix } from '../support/config';
import { repoRoot } from '../support/repo-root';
import { adminToken, projectToken } from '../support/tokens';
import { eventually } from '../support/eventually';
import { freePort } from '../../scripts/stack/servers';
import { generateEndpointSecret, signatureOf } from '../../src/outbound/signing';
import { loadDemo } from './skills-helpers';

const CLI = join(__dirname, '..', '..', 'src', 'cli.js');

describe('operator CLI (against the real store)', () => {
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    h = await startHarness();
    env = cliEnv(h, { PUBLIC_BASE_URL: h.baseUrl });
  });
  after(async () => h?.close());

  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });

  it('lists its commands', () => {
    const res = cli('help');
    assert.equal(res.status, 0);
    for (const name of ['mint-token', 'connect-app', 'rotate-app-authorization', 'billing-check', 'setup-temporal'])
      assert.match(res.stdout, new RegExp(name));
    const unknown = cli('no-such-command');
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown command "no-such-command"/);
    for (const name of ['invoke', 'connect-app', 'health']) {
      const help = cli(name, '--help');
      assert.equal(help.status, 0, `${name} --help: ${help.stderr}`);
      assert.match(help.stdout, new RegExp(`^usage: cli ${name}`));
    }
    assert.match(cli('invoke', '--help').stdout, /--project VALUE/);
  });

  it('health: exit 0 when the store and Temporal answer, 1 naming the one that does not', () => {
    const up = cli('health');
    assert.equal(up.status, 0, up.stdout + up.stderr);
    assert.match(up.stdout, /mongodb: up/);
    assert.match(up.stdout, /temporal: up/);
    const down = spawnSync(process.execPath, [CLI, 'health'], {
      env: { ...env, TEMPORAL_ADDRESS: '127.0.0.1:1' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(down.status, 1, down.stdout + down.stderr);
    assert.match(down.stdout, /temporal: down/);
  });

  it('trigger sends a provider sample event to an app; listen verifies the signatures of what it receives', async () => {
    const slug = `trig-${randomSuffix()}`;
    const authorization = (await h.request('POST', '/v1/apps', { token: adminToken(), body: { slug, name: 'Trigger' } })).body
      .authorization as string;
    // Asynchronously: the API it posts to runs in this process.
    const trigger = spawn(
      process.execPath,
      [
        CLI,
        'trigger',
        '--type',
        'INITIAL_PURCHASE',
        '--user',
        'trig-user',
        '--app',
        slug,
        '--authorization',
        authorization,
        '--api',
        h.baseUrl,
      ],
      // It keeps the subscriber's story in .data/ of its folder.
      { env, cwd: mkdtempSync(join(tmpdir(), 'trigger-')) },
    );
    let sent = '';
    trigger.stdout.on('data', (d: Buffer) => (sent += d.toString()));
    trigger.stderr.on('data', (d: Buffer) => (sent += d.toString()));
    assert.equal(await new Promise((r) => trigger.once('close', r)), 0, sent);
    assert.match(sent, /^200 .*"duplicate":false/);
    assert.match(sent, /PRODUCTION/, 'a purchase that counts, against the service on this machine');
    // In the app's inbox (this suite runs no worker to apply it).
    assert.equal(await h.db.collection(COLLECTIONS.webhookEvents).countDocuments({ scope: `app:${slug}`, type: 'INITIAL_PURCHASE' }), 1);
    assert.equal(
      spawnSync(process.execPath, [CLI, 'trigger', '--type', 'NOPE', '--user', 'u', '--app', slug, '--authorization', authorization], {
        env,
        encoding: 'utf8',
      }).status,
      1,
    );

    const secret = generateEndpointSecret();
    const port = await freePort();
    const listener = spawn(process.execPath, [CLI, 'listen', '--secret', secret, '--port', String(port)], { env });
    let out = '';
    listener.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await eventually(
        async () => out,
        (o) => o.includes('listening on'),
        { what: 'the listener' },
      );
      const body = JSON.stringify({ type: 'INITIAL_PURCHASE', id: 'e1' });
      const ts = Math.floor(Date.now() / 1000);
      const signed = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        body,
        headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(ts), 'webhook-signature': signatureOf(secret, 'msg_1', ts, body) },
      });
      assert.equal(signed.status, 200);
      const forged = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        body,
        headers: {
          'webhook-id': 'msg_2',
          'webhook-timestamp': String(ts),
          'webhook-signature': signatureOf(generateEndpointSecret(), 'msg_2', ts, body),
        },
      });
      assert.equal(forged.status, 401);
      await eventually(
        async () => out,
        (o) => o.includes('verified msg_1 INITIAL_PURCHASE') && o.includes('REFUSED msg_2'),
        { what: 'both lines' },
      );
    } finally {
      listener.kill('SIGTERM');
    }
  });

  it('mint-token prints a token the API accepts', async () => {
    const res = cli('mint-token', '--sub', 'alice', '--projects', 'p1,p2', '--hours', '1');
    assert.equal(res.status, 0, res.stderr);
    const principal = verifyToken(res.stdout.trim(), h.config.jwt);
    assert.deepEqual(principal.projects, ['p1', 'p2']);
    const api = await h.request('GET', '/v1/agents/p1/skills', { token: res.stdout.trim() });
    assert.equal(api.status, 404, 'authenticated (the project simply does not exist)');
  });

  it('mint-token with no project, app or admin role refuses: such a token could do nothing', () => {
    const res = cli('mint-token', '--sub', 'nobody');
    assert.equal(res.status, 1);
    assert.equal(res.stdout, '', 'no token printed');
    assert.match(res.stderr, /a token with no --projects, --apps or --admin can do nothing/);
    assert.equal(cli('mint-token', '--sub', 'root', '--admin').status, 0);
  });

  it('create-org and create-project set up a project without curl or a token; the API then serves it', async () => {
    const org = `org-${randomSuffix()}`;
    const created = cli('create-org', '--org', org, '--name', 'Globex', '--owner-email', 'owner@globex.test');
    assert.equal(created.status, 0, created.stderr);
    assert.equal(created.stdout, `org ${org}: created\n`);
    assert.equal(
      cli('create-org', '--org', org, '--name', 'Globex Inc', '--owner-email', 'owner@globex.test').stdout,
      `org ${org}: updated\n`,
    );
    const project = cli('create-project', '--project', `${org}-web`, '--org', org, '--name', 'Globex web');
    assert.equal(project.status, 0, project.stderr);
    assert.equal(project.stdout, `project ${org}-web (org ${org}): created\n`);
    const read = await h.request('GET', `/v1/projects/${org}-web`, { token: projectToken([`${org}-web`]) });
    assert.equal(read.status, 200);
    assert.deepEqual([read.body.name, read.body.org], ['Globex web', org]);
    assert.equal((await h.request('GET', `/v1/orgs/${org}`, { token: adminToken() })).body.name, 'Globex Inc');
    // Refusals name the flag; a project of an org that does not exist says how to create it.
    const orphan = cli('create-project', '--project', 'orphan', '--org', 'no-such-org');
    assert.equal(orphan.status, 1);
    assert.match(orphan.stderr, /org "no-such-org" does not exist; create it first: create-org --org no-such-org/);
    const badEmail = cli('create-org', '--org', 'x1', '--name', 'X', '--owner-email', 'not-an-email');
    assert.equal(badEmail.status, 1);
    assert.match(badEmail.stderr, /--owner-email must match format "email"/);
    assert.equal(cli('create-org', '--org', 'Bad Id', '--name', 'X', '--owner-email', 'a@b.test').status, 1);
    // Through the API with an admin token, as from a deployment.
    const viaApi = await runProcess(
      process.execPath,
      [CLI, 'create-project', '--project', `${org}-api`, '--org', org, '--api', h.baseUrl, '--token', adminToken()],
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, cwd: tmpdir() },
    );
    assert.equal(viaApi.code, 0, viaApi.stderr);
    assert.equal(viaApi.stdout, `project ${org}-api (org ${org}): created\n`);
  });

  it('connect-app prints the webhook URL and a one-time authorization that the receiver accepts; rotation too', async () => {
    const slug = `cli-${randomSuffix()}`;
    const res = cli('connect-app', '--slug', slug, '--name', 'CLI app');
    assert.equal(res.status, 0, res.stderr);
    const url = /Webhook URL:\s+(\S+)/.exec(res.stdout)![1]!;
    const authorization = /Authorization header:\s+(\S+)/.exec(res.stdout)![1]!;
    assert.equal(url, `${h.baseUrl}/api/saas/iap/billingprovider/webhook?app=${slug}`);
    const post = (value: string) =>
      h.request('POST', url.slice(h.baseUrl.length), {
        body: envelope(providerEvent('TEST', 'u', { at: Date.now() })),
        headers: { Authorization: value },
      });
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
    await h.db.collection('billing_metrics').insertOne({
      _id: 'app:skewed' as never,
      mrrMicros: 5_000_000,
      activeSubscriptions: 0,
      activeTrials: 0,
      flaggedCustomers: 0,
      scheduledDowngrades: 0,
      seq: 1,
      updatedAt: new Date(),
    });
    const bad = cli('billing-check', '--scope', 'app:skewed');
    assert.equal(bad.status, 1);
    assert.match(bad.stdout, /^mrr \(USD\) +\$5\.00 +\$0\.00 +MISMATCH$/m, 'dollars, labelled as dollars');
    assert.doesNotMatch(bad.stdout, /mrrMicros/);
  });

  it('billing-check --repair sends the metrics workflow the difference when the disagreement holds, and then agrees', async () => {
    await h.startWorker();
    // As if a subscriber run had been terminated after storing its record and before sending its delta.
    await h.db.collection('billing_metrics').insertOne({
      _id: 'app:lost-delta' as never,
      mrrMicros: 7_000_000,
      activeSubscriptions: 2,
      activeTrials: 0,
      flaggedCustomers: 1,
      scheduledDowngrades: 0,
      seq: 4,
      updatedAt: new Date(),
    });
    const repairEnv = { ...env, TEMPORAL_TASK_QUEUE: h.config.temporal.taskQueue };
    const repaired = await runProcess(process.execPath, [CLI, 'billing-check', '--scope', 'app:lost-delta', '--repair'], {
      env: repairEnv,
    });
    assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
    assert.match(repaired.stdout, /repaired/);
    const check = cli('billing-check', '--scope', 'app:lost-delta');
    assert.equal(check.status, 0, check.stdout);
    assert.match(check.stdout, /agree/);
  });

  it('rejects bad arguments with a message', () => {
    const res = cli('connect-app', '--slug', 'Bad Slug', '--name', 'x');
    assert.equal(res.status, 1);
    assert.match(res.stderr, /--slug must match/);
  });
});

/** Runs a process to its end, collecting its output (asynchronously: a worker may run in this process). */
function runProcess(
  command: string,
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('invoke (against the real stack)', function () {
  this.timeout(60_000);
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    h = await startHarness();
    await loadDemo(h);
    await h.startWorker();
    env = cliEnv(h, { TEMPORAL_TASK_QUEUE: h.config.temporal.taskQueue });
  });
  after(async () => h?.close());

  // Asynchronous: the worker runs in this process, and a synchronous spawn would stop it while the CLI waits.
  const invoke = async (...args: string[]) => {
    const { code, stdout, stderr } = await runProcess(process.execPath, [CLI, 'invoke', ...args], { env });
    return { status: code, stdout, stderr };
  };

  it('prints the same Markdown the API returns for the same inputs, and records the invocation', async () => {
    const res = await invoke('release_notes_composer', '--project', 'acme-web', '--from', '1.2.1', '--to', '2.0.0', '--tone', 'casual');
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, /^# What's new in 2\.0\.0\n/);
    const id = /\[invoke\] (inv_\w+): completed/.exec(res.stderr)![1]!;
    const token = projectToken(['acme-web']);
    const api = await h.request('GET', `/v1/agents/acme-web/invocations/${id}`, { token });
    assert.equal(api.status, 200);
    assert.equal(api.body.result.markdown, res.stdout);
    const record = await h.db.collection<{ _id: string; requestedBy: string }>(COLLECTIONS.invocations).findOne({ _id: id });
    assert.match(record!.requestedBy, /^cli:/);
  });

  it('--api and a token: the same invocation through the HTTP API, with no store or Temporal settings at all', async () => {
    const token = projectToken(['acme-web']);
    const bare = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    const res = await runProcess(
      process.execPath,
      [
        CLI,
        'invoke',
        'release_notes_composer',
        '--project',
        'acme-web',
        '--from',
        '1.2.1',
        '--to',
        '2.0.0',
        '--api',
        h.baseUrl,
        '--token',
        token,
      ],
      { env: bare, cwd: tmpdir() },
    );
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^# Release notes: 2\.0\.0\n/);
    const id = /\[invoke\] (inv_\w+): completed/.exec(res.stderr)![1]!;
    assert.equal((await h.request('GET', `/v1/agents/acme-web/invocations/${id}`, { token })).body.result.markdown, res.stdout);
    // The API's refusals come back with their code and words; a missing token is said before anything is sent.
    const refused = await runProcess(
      process.execPath,
      [CLI, 'invoke', 'release_notes_composer', '--project', 'acme-web', '--from', '1.2.1', '--to', '1.9.0'],
      { env: { ...bare, SKILLS_API_URL: h.baseUrl, SKILLS_TOKEN: token }, cwd: tmpdir() },
    );
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /422 impossible_request/);
    const noToken = await runProcess(
      process.execPath,
      [CLI, 'invoke', 'release_notes_composer', '--project', 'acme-web', '--from', '1.2.1', '--to', '2.0.0', '--api', h.baseUrl],
      { env: bare, cwd: tmpdir() },
    );
    assert.equal(noToken.code, 1);
    assert.match(noToken.stderr, /--api needs --token/);
  });

  it('connect-app, dead-letters and outbound-access over the HTTP API too', async () => {
    const bare = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SKILLS_API_URL: h.baseUrl, SKILLS_TOKEN: adminToken() };
    const slug = `api-${randomSuffix()}`;
    const connected = await runProcess(process.execPath, [CLI, 'connect-app', '--slug', slug, '--name', 'Over the API'], {
      env: bare,
      cwd: tmpdir(),
    });
    assert.equal(connected.code, 0, connected.stderr);
    const authorization = /Authorization header:\s+(\S+)/.exec(connected.stdout)![1]!;
    const hook = await h.request('POST', `/api/saas/iap/billingprovider/webhook?app=${slug}`, {
      body: { api_version: '1.0', event: { id: `e-${slug}`, type: 'TEST' } },
      headers: { Authorization: authorization },
    });
    assert.equal(hook.status, 200);
    const again = await runProcess(process.execPath, [CLI, 'connect-app', '--slug', slug, '--name', 'Again'], { env: bare, cwd: tmpdir() });
    assert.equal(again.code, 1);
    assert.match(again.stderr, /409 app_exists/);
    const listed = await runProcess(process.execPath, [CLI, 'dead-letters', '--scope', `app:${slug}`], { env: bare, cwd: tmpdir() });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^0 parked in app:${slug}`));
    const access = await runProcess(
      process.execPath,
      [CLI, 'outbound-access', '--slug', slug, '--enable', '--contact-email', 'ops@api.test'],
      { env: bare, cwd: tmpdir() },
    );
    assert.equal(access.code, 0, access.stderr);
    assert.equal(
      (await h.db.collection<{ _id: string; outboundAccess?: boolean }>(COLLECTIONS.apps).findOne({ _id: slug }))?.outboundAccess,
      true,
    );
  });

  it('bin/cli prints only the result: `bin/cli invoke … > notes.md` holds the Markdown and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bin-cli-'));
    try {
      const out = await runProcess(
        'bash',
        ['-c', `${join(repoRoot(), 'bin', 'cli')} invoke release_notes_composer --project acme-web --from 1.2.1 --to 2.0.0 > notes.md`],
        { env, cwd: dir },
      );
      assert.equal(out.code, 0, out.stderr);
      const notes = readFileSync(join(dir, 'notes.md'), 'utf8');
      const id = /\[invoke\] (inv_\w+): completed/.exec(out.stderr)![1]!;
      const api = await h.request('GET', `/v1/agents/acme-web/invocations/${id}`, { token: projectToken(['acme-web']) });
      assert.equal(notes, api.body.result.markdown, 'the file is exactly the Markdown');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses what the API refuses, with its message', async () => {
    const unknown = await invoke('release_notes_composer', '--project', 'acme-web', '--from', '1.2.1', '--to', '1.9.0');
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /1\.9\.0 is not a release of this project/);
    const badFlag = await invoke('incident_rca', '--project', 'acme-web', '--from', '1.0.0');
    assert.equal(badFlag.status, 1);
    assert.match(badFlag.stderr, /--from is not an input of incident_rca/);
    const bad = await invoke('proposal_writer', '--project', 'acme-web', '--customer', 'X', '--format', 'poster');
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /\/format must be one of/);
    assert.equal((await invoke('no_such_skill', '--project', 'acme-web')).status, 1);
    assert.equal((await invoke('--project', 'acme-web')).status, 2);
  });
});
