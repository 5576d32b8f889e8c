/**
 * What operators scrape: a worker process with WORKER_METRICS_ADDRESS serves the Temporal SDK's metrics and the
 * worker's own on one Prometheus endpoint, the API serves the relay's; and every metric the example alert rules
 * (ops/prometheus-alerts.yml) use is one of them; `promtool check metrics` accepts both pages.
 */
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parse } from 'yaml';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { repoRoot } from '../support/repo-root';
import { projectToken } from '../support/tokens';
import { PROJECT, invoke, loadDemo, settle } from './skills-helpers';
import { freePort } from '../../scripts/stack/servers';

/** Metric names a Prometheus text page declares (with the series names histograms expand to). */
function declared(page: string): Set<string> {
  const names = new Set<string>();
  for (const m of page.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(m[1]!);
    if (m[2] === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(m[1]! + suffix);
  }
  for (const m of page.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/gm)) names.add(m[1]!);
  return names;
}

/** PROMTOOL_PATH, promtool on PATH, or the one `npm test` keeps in the user cache (Debian's prometheus package). */
function findPromtool(): string | null {
  const cached = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'skills-billing-service', 'bin');
  const candidates = [
    process.env.PROMTOOL_PATH,
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'promtool')),
    ...(existsSync(cached)
      ? readdirSync(cached)
          .filter((f) => f.startsWith('promtool-'))
          .map((f) => join(cached, f))
      : []),
  ];
  return candidates.find((c): c is string => c !== undefined && c !== '' && existsSync(c)) ?? null;
}

describe('metrics operators alert on (a real worker process, the API)', () => {
  let h: Harness;
  let worker: ChildProcess;
  let address = '';
  const member = projectToken([PROJECT]);
  before(async () => {
    address = `127.0.0.1:${await freePort()}`;
    h = await startHarness({ WORKER_METRICS_ADDRESS: address });
    await loadDemo(h);
    worker = await h.spawnWorkerProcess();
  });
  after(async () => {
    worker?.kill('SIGTERM');
    await h?.close();
  });

  it("the worker serves the SDK's metrics and its own; the API its relay's; the alert rules use only these", async () => {
    const res = await invoke(h, member, 'release_notes_composer', { fromVersion: '1.2.1', toVersion: '2.0.0' });
    assert.equal(res.status, 202, res.text);
    assert.equal((await settle(h, member, res.body.id)).status, 'completed');
    const workerPage = await eventually(
      async () => (await fetch(`http://${address}/metrics`)).text(),
      (page) => /skill_invocations_finished_total\{[^}]*skill="release_notes_composer"[^}]*\} [1-9]/.test(page),
      { what: 'the finished invocation on the worker endpoint', timeoutMs: 30_000 },
    );
    assert.match(workerPage, /skill_invocations_finished_total\{[^}]*status="completed"/);
    assert.match(workerPage, /skill_invocation_duration_seconds_bucket\{/);
    assert.match(workerPage, /temporal_workflow_task_schedule_to_start_latency/, "the SDK's own metrics on the same endpoint");
    const apiPage = (await h.request('GET', '/metrics')).text;
    for (const name of [
      'billing_relay_backlog',
      'billing_relay_lag_seconds',
      'billing_dead_letters_parked',
      'billing_totals_owed',
      'http_request_duration_seconds',
    ])
      assert.match(apiPage, new RegExp(`# TYPE ${name} `), name);

    // Prometheus's own linter accepts both pages (it refused prom-client's nodejs_active_*_total gauges).
    const promtool = findPromtool();
    if (promtool) {
      for (const [what, page] of [
        ['worker', workerPage],
        ['API', apiPage],
      ] as const) {
        const linted: SpawnSyncReturns<string> = spawnSync(promtool, ['check', 'metrics'], { input: page, encoding: 'utf8' });
        assert.equal(linted.status, 0, `promtool check metrics on the ${what}'s page: ${linted.stdout}${linted.stderr}`);
      }
    } else if (process.env.CI === 'true') {
      assert.fail('CI=true and no promtool (PROMTOOL_PATH, PATH or the user cache)');
    } else console.error('\n[metrics] !!! promtool not found: `promtool check metrics` DID NOT RUN on the pages !!!\n');

    const known = new Set([...declared(workerPage), ...declared(apiPage)]);
    // Metrics that appear only once something happened (a failed mail, an outbound attempt) are declared by name.
    for (const name of ['mail_send_failures_total', 'outbound_delivery_attempts_total', 'outbound_delivery_latency_seconds_bucket'])
      known.add(name);
    const rules = parse(readFileSync(join(repoRoot(), 'ops', 'prometheus-alerts.yml'), 'utf8')) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const alerts = rules.groups.flatMap((g) => g.rules);
    assert.ok(alerts.length >= 8);
    for (const rule of alerts) {
      const used = [...rule.expr.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{[]/g)].map((m) => m[1]!);
      assert.ok(used.length > 0, `${rule.alert} selects no metric`);
      for (const name of used) assert.ok(known.has(name), `${rule.alert} uses ${name}, which nothing serves`);
    }
  });
});
