/**
 * The documentation's commands, as written: every fenced block marked ```sh runnable in README.md and docs/*.md
 * is run, line by line, in a second terminal beside a running stack (a folder as `npm run dev` leaves it), and
 * each command's effect is checked through the API or the store (a curl line's every request too: its status and what
 * it did). A command with no check here fails the test, so a new documented command cannot go unchecked; a fenced
 * shell block not marked runnable fails it too unless NOT_RUN says why it cannot run here. Also holds the README's promises to a newcomer: release notes of
 * one's own repository in at most five commands, a purchase in the console in at most three steps, no curl.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { writeDevStack } from '../../src/config/env-files';
import { eventually } from '../support/eventually';
import { GitRepo } from '../support/git-repo';
import { startHarness, type Harness } from '../support/harness';
import { repoRoot } from '../support/repo-root';
import { adminToken } from '../support/tokens';
import { isolatedNamespace } from '../support/temporal-namespace';
import { loadDemo } from './skills-helpers';

/** The address the documentation writes for `npm run dev`'s API; the test stack listens elsewhere. */
const DOCUMENTED_API = 'http://127.0.0.1:3000';
const DAY = 86_400_000;
// An event's effects reach the customer record, then the scope's totals, through workflow tasks on a machine
// shared with two other test files (5-second workflow tasks were seen): each is given a minute.
const SETTLE_MS = 60_000;

interface Block {
  file: string;
  /** The heading the block stands under. */
  heading: string;
  commands: string[];
}

/** Lines joined while a single-quoted argument is open (a JSON body written over several lines), as the shell reads them. */
function joinQuoted(lines: string[]): string[] {
  const out: string[] = [];
  let open: string | null = null;
  for (const line of lines) {
    open = open === null ? line : `${open}\n${line}`;
    if ((open.match(/'/g) ?? []).length % 2 === 0) {
      out.push(open);
      open = null;
    }
  }
  if (open !== null) out.push(open);
  return out;
}

/** Every ```sh runnable block of README.md and docs/*.md, its lines joined where they end in `\`, comments dropped. */
export function runnableBlocks(root: string): Block[] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
  const blocks: Block[] = [];
  for (const file of files) {
    let heading = '';
    let inBlock: string[] | null = null;
    let fence = false;
    for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
      if (inBlock) {
        if (line.startsWith('```')) {
          const commands = joinQuoted(
            inBlock
              .join('\n')
              .replace(/\\\n\s*/g, ' ')
              .split('\n'),
          )
            .map((l) => l.replace(/\s+#\s.*$/, '').trim())
            .filter((l) => l !== '' && !l.startsWith('#'));
          blocks.push({ file, heading, commands });
          inBlock = null;
        } else inBlock.push(line);
        continue;
      }
      if (line.startsWith('```')) {
        if (!fence && /^```sh runnable\s*$/.test(line)) inBlock = [];
        else fence = !fence;
        continue;
      }
      if (!fence && /^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    }
  }
  return blocks;
}

/** The CLI command a documented line runs: `bin/cli NAME …`, `npm run cli -- NAME …`, or inside `export X=$(…)`. */
function commandName(line: string): string | null {
  if (/(?:^|\$\()curl /.test(line)) return 'curl';
  const m = /(?:^|\$\()(?:bin\/cli|npx skills-cli|npm run -s cli --|npm run cli --) ([a-z-]+)/.exec(line);
  if (m) return m[1]!;
  return /^(?:export )?[A-Z][A-Z_]*=/.test(line) ? 'variable' : null;
}

/** What the terminal's curl reports of each request it made (see terminal()): status, method and URL. */
const requestsOf = (stderr: string) =>
  [...stderr.matchAll(/^\[curl\] HTTP (\d{3}) (\S+) (\S+)$/gm)].map((m) => ({ status: Number(m[1]), method: m[2]!, url: new URL(m[3]!) }));

const option = (line: string, name: string): string | undefined => {
  const m = new RegExp(`--${name} (?:"([^"]*)"|([^\\s)]+))`).exec(line);
  return m ? (m[1] ?? m[2]) : undefined;
};

/** Documented commands this test cannot run, and why; any other fenced shell block must be marked runnable. */
const NOT_RUN: { file: string; first: string; why: string }[] = [
  {
    file: 'README.md',
    first: 'npm run dev',
    why: 'binds fixed ports (one dev stack per machine): this test stands in for it with the folder it leaves; its supervisor and defaults have their own tests',
  },
  { file: 'README.md', first: 'npm test', why: 'the test command itself; npm run bench is measured apart (bench/)' },
  { file: 'docs/deployment.md', first: 'npm run dev', why: 'as in the README' },
  {
    file: 'docs/deployment.md',
    first: 'TEMPORAL_ADDRESS=temporal.internal',
    why: 'a cluster with mTLS elsewhere; temporal-tls.test.ts runs the TLS settings',
  },
  { file: 'docs/deployment.md', first: 'TEMPORAL_ADDRESS=us-east-1.aws', why: 'Temporal Cloud, not reachable from a test' },
  { file: 'docs/operations.md', first: 'WORKER_ROLES=billing', why: 'long-running workers; worker-roles.test.ts starts them by role' },
  {
    file: 'docs/outbound-webhooks.md',
    first: 'curl -s -X POST',
    why: 'needs a public https receiver; cli-webhook-tools.test.ts registers endpoints through listen, and outbound-webhooks.test.ts through the API',
  },
  { file: 'docs/outbound-webhooks.md', first: 'npm run cli -- listen', why: 'runs until Ctrl-C; cli-webhook-tools.test.ts runs it' },
  { file: 'docs/cli.md', first: 'commands:', why: "the CLI's help text, not commands; cli.test.ts checks the help" },
];

interface Ran {
  line: string;
  stdout: string;
  stderr: string;
  cwd: string;
  env: Record<string, string>;
}

describe('the documentation’s runnable commands, as written, in a second terminal beside a running stack', function () {
  this.timeout(300_000);
  let h: Harness;
  let root: string;
  let app: string;
  let env: NodeJS.ProcessEnv;
  const admin = adminToken();
  let operatorMrrBefore = 0;
  let lastExpiry: number | null = null;

  /** What each documented command must have done; a command missing here fails the test. */
  const CHECKS: Record<string, (ran: Ran) => Promise<void>> = {
    'create-org': async ({ line, stdout }) => {
      const org = option(line, 'org')!;
      assert.match(stdout, new RegExp(`^org ${org}: (created|updated)$`, 'm'));
      const res = await h.request('GET', `/v1/orgs/${org}`, { token: admin });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.name, option(line, 'name'));
    },
    'create-project': async ({ line, stdout }) => {
      const project = option(line, 'project')!;
      assert.match(stdout, new RegExp(`^project ${project} \\(org ${option(line, 'org')}\\): (created|updated)$`, 'm'));
      const res = await h.request('GET', `/v1/agents/${project}/skills`, { token: admin });
      assert.equal(res.status, 200, res.text);
    },
    'import-git': async ({ line, stdout }) => {
      const project = option(line, 'project')!;
      assert.match(
        stdout,
        new RegExp(`imported .* into ${project}: \\d+ releases, \\d+ commits; \\d+ documents new, \\d+ updated, 0 rejected`),
      );
      const res = await h.request('GET', `/v1/projects/${project}/documents?kind=release`, { token: admin });
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.documents.length >= 2, `the repository's releases are stored: ${res.text}`);
    },
    'mint-token': async ({ line, env: after }) => {
      const variable = /export (\w+)=\$\(/.exec(line)?.[1];
      assert.ok(variable, `${line}: a token is minted into a variable the next commands use`);
      const token = after[variable];
      assert.ok(token, `${variable} is set`);
      const project = option(line, 'projects')!;
      const res = await h.request('GET', `/v1/agents/${project}/skills`, { token });
      assert.equal(res.status, 200, `the minted token opens ${project}: ${res.text}`);
    },
    curl: async ({ line, stdout, stderr, env: after }) => {
      const requests = requestsOf(stderr);
      assert.ok(requests.length > 0, `${line}: curl made a request`);
      for (const r of requests) {
        const what = `${r.method} ${r.url.pathname}${r.url.search}`;
        const rule = CURL_CHECKS.find((c) => c.method === r.method && c.path.test(r.url.pathname));
        assert.ok(rule, `${line}: ${what} has no check in CURL_CHECKS`);
        await rule.check({ status: r.status, url: r.url, line, stdout, env: after });
      }
    },
    variable: async ({ line, env: after }) => {
      const name = /^(?:export )?([A-Z][A-Z_]*)=/.exec(line)![1]!;
      assert.ok(after[name], `${line}: ${name} is set`);
      if (name === 'AUTH') assert.match(after[name], /^whsec_/, 'the app’s webhook authorization value');
    },
    invoke: async ({ line, stdout, cwd }) => {
      const out = / > (\S+)$/.exec(line);
      // `npm run cli -- …` prints npm's banner first (the docs say so); bin/cli and `npm run -s` print only the document.
      const banner = /^npm run cli -- /.test(line) ? /^\n?> [^\n]*\n> [^\n]*\n\n/.exec(stdout) : null;
      if (/^npm run cli -- /.test(line)) assert.ok(banner, `npm's banner, then the document: ${stdout.slice(0, 300)}`);
      const markdown = out ? readFileSync(join(cwd, out[1]!), 'utf8') : stdout.slice(banner?.[0].length ?? 0);
      if (option(line, 'to') && line.includes('release_notes_composer'))
        assert.match(markdown, new RegExp(`^# .*\\b${option(line, 'to')!.replace(/\./g, '\\.')}\\n`), markdown);
      assert.match(markdown, /\]\(https?:\/\/[^)]+\)|\[\^\d+\]/, 'the publishable Markdown, its sources linked');
      assert.doesNotMatch(markdown, /\[(pr|commit|incident|case_study|win|ticket|error_issue|runbook):[^\]]+\]/, 'no raw citation markers');
      assert.doesNotMatch(markdown, /^> |npm (WARN|notice)/m, 'nothing but the document');
      if (option(line, 'project') === 'mine') {
        // The repository built in before(): its two changes since 1.0.0, in their authors' words.
        assert.match(markdown, /Export to CSV/);
        assert.match(markdown, /Crash on empty input/i);
      }
    },
    trigger: async ({ line, stdout }) => {
      assert.match(stdout, /^200 \{"received":true/m);
      const user = option(line, 'user')!;
      const type = option(line, 'type')!;
      if (!line.includes('--operator')) return appStory(line, option(line, 'app')!, user, type);
      // One subscriber's story (the provider's rules): the purchase entitles to pro until its period ends, a
      // renewal moves that end a month on, and MRR counts one monthly subscription at 9.99 USD however often it renews.
      const customer = await eventually(
        () => h.request('GET', `/v1/billing/customers/${user}`, { token: admin }),
        (r) =>
          r.status === 200 &&
          r.body.entitlements.length === 1 &&
          (type !== 'RENEWAL' || Date.parse(r.body.entitlements[0].expiresAt) - (lastExpiry ?? Infinity) > 25 * DAY),
        { what: `${user} after ${line}`, timeoutMs: SETTLE_MS },
      );
      assert.equal(customer.body.entitlements[0].id, 'pro');
      lastExpiry = Date.parse(customer.body.entitlements[0].expiresAt);
      await eventually(
        () => h.request('GET', '/v1/billing/metrics', { token: admin }),
        (r) => r.status === 200 && Math.abs(r.body.mrr.amount - operatorMrrBefore - 9.99) < 0.005,
        { what: `operator MRR up by 9.99 after ${line}`, timeoutMs: SETTLE_MS },
      );
      // The operator's subscriber is an org of this service: its entitlements are what the console shows.
      await eventually(
        () => h.request('GET', `/v1/orgs/${user}`, { token: admin }),
        (r) => r.status === 200 && JSON.stringify(r.body.entitlements).includes('"pro"'),
        { what: `org ${user} entitled to pro`, timeoutMs: SETTLE_MS },
      );
    },
  };

  const ok = (status: number, what: string, stdout: string) =>
    assert.ok(status >= 200 && status < 300, `${what} answered ${status}: ${stdout.slice(0, 500)}`);
  const body = (line: string) => JSON.parse(/ -d '([^']*)'/.exec(line)![1]!) as Record<string, unknown>;

  /** What each request a documented curl line makes must have done; a request with no rule here fails the test. */
  const CURL_CHECKS: {
    method: string;
    path: RegExp;
    check: (r: { status: number; url: URL; line: string; stdout: string; env: Record<string, string> }) => Promise<void>;
  }[] = [
    {
      method: 'POST',
      path: /^\/v1\/apps$/,
      check: async ({ status, line, stdout }) => {
        assert.equal(status, 201, stdout);
        assert.match(stdout, /"authorization":"whsec_/, 'the authorization value, shown once');
        const app = await h.request('GET', `/v1/apps/${String(body(line).slug)}`, { token: admin });
        assert.equal(app.status, 200, app.text);
      },
    },
    {
      method: 'POST',
      path: /^\/api\/saas\/iap\/billingprovider\/webhook$/,
      check: async ({ status, stdout }) => {
        assert.equal(status, 200, stdout);
        assert.match(stdout, /"received":true/);
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/billing\/customers\/[^/]+$/,
      // The event reaches the customer record through its workflow: a read right after the webhook may come first
      // (404), so the record is then awaited; either way it holds the documented purchase's subscription (its
      // entitlement depends on today's date against the example's fixed period, so it is not asserted).
      check: async ({ status, url, stdout }) => {
        assert.ok(status === 200 || status === 404, `${url} answered ${status}: ${stdout}`);
        await eventually(
          () => h.request('GET', `${url.pathname}${url.search}`, { token: admin }),
          (r) => r.status === 200 && JSON.stringify(r.body.subscriptions).includes('"pro_monthly"'),
          { what: `${url.pathname} with the purchased subscription`, timeoutMs: SETTLE_MS },
        );
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/billing\/metrics$/,
      check: async ({ status, stdout }) => {
        ok(status, 'metrics', stdout);
        assert.equal(typeof JSON.parse(stdout).mrr.amount, 'number');
      },
    },
    {
      method: 'PUT',
      path: /^\/v1\/orgs\/[^/]+$/,
      check: async ({ status, url, line, stdout }) => {
        ok(status, line, stdout);
        const org = await h.request('GET', url.pathname, { token: admin });
        assert.equal(org.body.name, body(line).name, org.text);
      },
    },
    {
      method: 'PUT',
      path: /^\/v1\/projects\/[^/]+$/,
      check: async ({ status, url, line, stdout }) => {
        ok(status, line, stdout);
        const project = await h.request('GET', url.pathname, { token: admin });
        assert.deepEqual([project.body.name, project.body.org], [body(line).name, body(line).org], project.text);
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/projects\/[^/]+\/documents$/,
      check: async ({ status, url, line, stdout }) => {
        ok(status, line, stdout);
        const sent = body(line).documents as { kind: string; externalId: string }[];
        for (const d of sent) {
          const listed = await h.request('GET', `${url.pathname}?kind=${d.kind}`, { token: admin });
          assert.ok(
            (listed.body.documents as { externalId: string }[]).some((x) => x.externalId === d.externalId),
            `${d.externalId} stored: ${listed.text}`,
          );
        }
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/agents\/[^/]+\/skills$/,
      check: async ({ status, stdout }) => {
        ok(status, 'skills', stdout);
        assert.deepEqual(stdout.trim().split('\n'), ['"release_notes_composer"', '"proposal_writer"', '"incident_rca"']);
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/agents\/[^/]+\/skills\/[a-z_]+$/,
      check: async ({ status, line, stdout, env: after }) => {
        ok(status, line, stdout);
        const started = /^(?:export )?([A-Z]+)=\$\(/.exec(line)?.[1];
        // Started and kept for the next lines (its id), or waited for and printed (the document).
        if (started) assert.match(after[started] ?? '', /^inv_/, `${started} holds the invocation's id`);
        else assert.match(stdout, /^# /, 'the document, printed');
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/agents\/[^/]+\/invocations\/inv_[^/]+$/,
      check: async ({ status, stdout }) => {
        ok(status, 'invocation', stdout);
        assert.match(stdout.split('\n')[0]!, /^"[a-z_]+"$/, 'its status');
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/agents\/[^/]+\/invocations\/inv_[^/]+\/events$/,
      check: async ({ status, stdout }) => {
        ok(status, 'events', stdout);
        assert.match(stdout, /^event: result$/m, 'the stream ends with the result');
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/agents\/[^/]+\/invocations\/inv_[^/]+\/cancel$/,
      // Cancelling one that has ended (the proposal above, followed to its result) is the documented 409.
      check: async ({ status, stdout }) => {
        if (status === 409) assert.match(stdout, /"code":"invocation_finished"/);
        else ok(status, 'cancel', stdout);
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/agents\/[^/]+\/a2a$/,
      check: async ({ status, stdout }) => {
        ok(status, 'a2a', stdout);
        assert.match(stdout, /^# /, "the task's artifact: the document");
      },
    },
    {
      method: 'PUT',
      path: /^\/v1\/apps\/[^/]+\/outbound-access$/,
      check: async ({ status, url, line, stdout }) => {
        ok(status, line, stdout);
        const endpoints = await h.request('GET', url.pathname.replace(/outbound-access$/, 'webhook-endpoints'), { token: admin });
        assert.equal(endpoints.status, 200, `early access granted: ${endpoints.text}`);
      },
    },
  ];

  /** An app's subscriber after a documented trigger: entitled, a renewal a month on, a cancellation at the period's end. */
  const appExpiry = new Map<string, number>();
  async function appStory(line: string, app: string, user: string, type: string) {
    const before = appExpiry.get(`${app}/${user}`) ?? null;
    const customer = await eventually(
      () => h.request('GET', `/v1/billing/customers/${user}?app=${app}`, { token: admin }),
      (r) =>
        r.status === 200 &&
        r.body.entitlements.length === 1 &&
        (type !== 'RENEWAL' || Date.parse(r.body.entitlements[0].expiresAt) - (before ?? Infinity) > 25 * DAY) &&
        (type !== 'CANCELLATION' || r.body.scheduledDowngrade !== null),
      { what: `${user} of ${app} after ${line}`, timeoutMs: SETTLE_MS },
    );
    assert.equal(customer.body.entitlements[0].id, 'pro');
    if (type === 'CANCELLATION') assert.equal(Date.parse(customer.body.scheduledDowngrade.at), before, 'at the period’s end');
    appExpiry.set(`${app}/${user}`, Date.parse(customer.body.entitlements[0].expiresAt));
  }

  before(async () => {
    // Its own namespace: the operator scope's totals workflow is one per namespace, and the README's purchase is
    // an operator event whose MRR this file reads (see isolatedNamespace).
    h = await startHarness({ TEMPORAL_NAMESPACE: await isolatedNamespace('docs-commands') });
    await loadDemo(h);
    await h.startWorker();
    // A folder as `npm run dev` leaves it: package.json, bin/cli, .env with the secrets, .data/dev-stack.env
    // with the addresses it chose (this process stands in for the dev runner), and repositories beside it.
    root = mkdtempSync(join(tmpdir(), 'docs-commands-'));
    app = join(root, 'app');
    mkdirSync(join(app, 'bin'), { recursive: true });
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({
        name: 'app',
        private: true,
        scripts: { cli: `node ${JSON.stringify(join(__dirname, '..', '..', 'src', 'cli.js'))}` },
        // As the project's own package.json declares it: `npx skills-cli …` runs bin/cli.
        bin: { 'skills-cli': 'bin/cli' },
      }),
    );
    symlinkSync(join(repoRoot(), 'bin', 'cli'), join(app, 'bin', 'cli'));
    const jwt = h.config.jwt;
    writeFileSync(
      join(app, '.env'),
      [
        `JWT_SECRET=${jwt.secret}`,
        ...(jwt.issuer ? [`JWT_ISSUER=${jwt.issuer}`] : []),
        ...(jwt.audience ? [`JWT_AUDIENCE=${jwt.audience}`] : []),
        `MONGODB_DB=${h.config.mongo.dbName}`,
        `TEMPORAL_TASK_QUEUE=${h.config.temporal.taskQueue}`,
        `TEMPORAL_NAMESPACE=${h.config.temporal.namespace}`,
        `OPERATOR_WEBHOOK_AUTHORIZATION="${h.config.webhooks.operatorAuthorization}"`,
        '',
      ].join('\n'),
    );
    writeDevStack(app, {
      TEMPORAL_ADDRESS: h.config.temporal.address,
      MONGODB_URI: h.config.mongo.uri,
      PORT: new URL(h.baseUrl).port,
      HOST: '127.0.0.1',
    });
    // "Your repository" (README) and the one docs/skills.md imports into the demo project.
    const mine = new GitRepo({ dir: join(root, 'my-repo') });
    mine.commit('feat: first release (#1)');
    mine.tag('v1.0.0', 'First');
    mine.commit('feat: Export to CSV (#2)');
    mine.commit('fix: crash on empty input (#3)');
    mine.tag('v1.1.0');
    const some = new GitRepo({ dir: join(root, 'some-repo') });
    some.commit('feat: first (#1)');
    some.tag('v0.9.0', 'First');
    some.commit('fix: second (#2)');
    some.tag('v0.9.1');
    some.commit('docs: unreleased');
    // The second terminal: none of the stack's variables in its environment; this process's node first on PATH.
    env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) =>
          ![
            'TEMPORAL_ADDRESS',
            'MONGODB_URI',
            'MONGODB_DB',
            'JWT_SECRET',
            'JWT_ISSUER',
            'JWT_AUDIENCE',
            'TEMPORAL_TASK_QUEUE',
            'OPERATOR_WEBHOOK_AUTHORIZATION',
            'SKILLS_API_URL',
            'SKILLS_TOKEN',
            'PUBLIC_BASE_URL',
          ].includes(k),
      ),
    );
    env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
    // As `npm run dev` prints them for this terminal: `export TOKEN=…` (an admin's), and the API's address.
    env.TOKEN = admin;
    env.API = h.baseUrl;
    const metrics = await h.request('GET', '/v1/billing/metrics', { token: admin });
    assert.equal(metrics.status, 200, metrics.text);
    operatorMrrBefore = metrics.body.mrr.amount;
  });
  after(async () => {
    await h?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** One line in the terminal: the variables earlier lines exported carry over, as in one shell session. */
  function terminal(line: string): Promise<{ code: number | null; stdout: string; stderr: string; env: Record<string, string> }> {
    const state = join(app, '.terminal-env');
    const envOut = join(app, '.terminal-env-after');
    // curl reports each request's status, method and URL on stderr (the checks read them); a pipe fails with its
    // first failing command, as under `set -o pipefail`; a variable a line sets (`INV=$(…)`) is kept for the next
    // lines, as in one shell (set -a).
    const curl = `curl() { command curl -w '%{stderr}[curl] HTTP %{http_code} %{method} %{url_effective}\\n' "$@"; }\nset -o pipefail\nset -a\n`;
    const script = `${curl}${existsSync(state) ? `. ${JSON.stringify(state)}\n` : ''}${line}\nrc=$?\nexport -p > ${JSON.stringify(state)}\nenv -0 > ${JSON.stringify(envOut)}\nexit $rc\n`;
    return new Promise((resolve) => {
      const child = spawn('bash', ['-c', script], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let [stdout, stderr] = ['', ''];
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => {
        const after = Object.fromEntries(
          readFileSync(envOut, 'utf8')
            .split('\0')
            .filter((kv) => kv.includes('='))
            .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
        );
        resolve({ code, stdout, stderr, env: after });
      });
    });
  }

  it('the README walks a newcomer to their own release notes in at most 5 commands and to a purchase in the console in at most 3 steps, with no curl', () => {
    const readme = runnableBlocks(repoRoot()).filter((b) => b.file === 'README.md');
    const notes = readme.find((b) => /release notes of your own repository/i.test(b.heading));
    const purchase = readme.find((b) => /a purchase in the console/i.test(b.heading));
    assert.ok(notes && purchase, 'both walkthroughs are in the README, marked runnable');
    assert.ok(notes.commands.length <= 5, notes.commands.join('\n'));
    assert.match(notes.commands.at(-1)!, /^bin\/cli invoke release_notes_composer .* > notes\.md$/);
    assert.ok(notes.commands.some((c) => / import-git /.test(c)));
    // The commands, then opening the console's link: three steps at most.
    assert.ok(purchase.commands.length + 1 <= 3, purchase.commands.join('\n'));
    assert.ok(purchase.commands.some((c) => /trigger --type INITIAL_PURCHASE/.test(c)));
    for (const c of [...notes.commands, ...purchase.commands]) assert.doesNotMatch(c, /\bcurl\b/, c);
  });

  it('runs every runnable command of README.md and docs/*.md, and each does its job', async () => {
    const blocks = runnableBlocks(repoRoot());
    assert.ok(
      blocks.some((b) => b.file !== 'README.md'),
      'docs/ has runnable blocks too',
    );
    for (const block of blocks) {
      for (const written of block.commands) {
        const name = commandName(written);
        const check = name ? CHECKS[name] : undefined;
        assert.ok(check, `${block.file} (${block.heading}) runs "${written}"; add what it must do to CHECKS`);
        const line = written.replaceAll(DOCUMENTED_API, h.baseUrl);
        const out = await terminal(line);
        assert.equal(out.code, 0, `${block.file}: ${line}\n${out.stdout}\n${out.stderr}`);
        await check({ line, stdout: out.stdout, stderr: out.stderr, cwd: app, env: out.env });
      }
    }
    // The console the walkthrough opens serves its page.
    const page = await h.request('GET', '/dashboard');
    assert.equal(page.status, 200);
    assert.match(page.text, /<html/i);
  });

  it('every other fenced shell block of README.md and docs/*.md is one this test cannot run, and says so here', () => {
    const root = repoRoot();
    const unrun: string[] = [];
    for (const file of [
      'README.md',
      ...readdirSync(join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ]) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        const m = /^```(\S*)(.*)$/.exec(lines[i]!);
        if (!m) continue;
        const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
        const body = lines.slice(i + 1, end);
        const shell = ['sh', 'bash', 'shell', 'console'].includes(m[1]!) || body.some((l) => /^(?:npm run|npx|bin\/cli|curl) /.test(l));
        if (shell && !/\brunnable\b/.test(m[2]!)) {
          const first = body.find((l) => l.trim() !== '' && !l.startsWith('#'))!.trim();
          if (!NOT_RUN.some((n) => n.file === file && first.startsWith(n.first))) unrun.push(`${file}:${i + 1}: ${first}`);
        }
        i = end;
      }
    }
    assert.deepEqual(unrun, [], 'mark these ```sh runnable (and add their checks), or list them in NOT_RUN with the reason');
  });

  it('without the stack, the CLI says what to do instead of listing variables only', async () => {
    const empty = join(root, 'elsewhere');
    mkdirSync(empty);
    writeFileSync(join(empty, 'package.json'), readFileSync(join(app, 'package.json')));
    const out = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn('bash', ['-c', 'npm run cli -- invoke release_notes_composer --project acme-web --from 1.2.1 --to 2.0.0'], {
        cwd: empty,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    assert.equal(out.code, 1);
    assert.match(out.stderr, /TEMPORAL_ADDRESS is required/);
    assert.match(out.stderr, /hint: run it in this folder beside `npm run dev`/);
  });
});
