import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { findExecutable } from '../../support/find-executable';
import { repoRoot } from '../../support/repo-root';

const ops = join(repoRoot(), 'ops');

/** The alert rules as Prometheus reads and evaluates them: promtool's own parser and rule evaluator. */
describe('ops/prometheus-alerts.yml under promtool', function () {
  this.timeout(30_000);
  let promtool = '';

  before(function () {
    const found = findExecutable([process.env.PROMTOOL_PATH, 'promtool']);
    if (!found) {
      // In CI a missing promtool is a failure, never a pass by omission.
      if (process.env.CI === 'true') throw new Error('CI=true and no promtool: bash scripts/ensure-promtool.sh fetches it');
      console.error(
        '\n[alerts] !!! promtool not found: THE ALERT RULE TESTS DID NOT RUN (bash scripts/ensure-promtool.sh fetches it) !!!\n',
      );
      this.skip();
    }
    promtool = found;
  });

  it('parses every rule and its expression', () => {
    const r = spawnSync(promtool, ['check', 'rules', 'prometheus-alerts.yml'], { cwd: ops, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /SUCCESS: \d+ rules found/);
  });

  it('fires every alert when, and only when, its cases say (ops/prometheus-alerts.test.yml)', () => {
    const r = spawnSync(promtool, ['test', 'rules', 'prometheus-alerts.test.yml'], { cwd: ops, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});

interface AlertTest {
  alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[];
}

/** Read without promtool, so that it holds wherever the tests run: no alert without its tests. */
describe('ops/prometheus-alerts.test.yml covers every alert', () => {
  it('has, for every alert in ops/prometheus-alerts.yml, a case where it fires and one where it does not', () => {
    const rules = parse(readFileSync(join(ops, 'prometheus-alerts.yml'), 'utf8')) as { groups: { rules: { alert?: string }[] }[] };
    const alerts = rules.groups.flatMap((g) => g.rules.flatMap((r) => (r.alert ? [r.alert] : [])));
    assert.ok(alerts.length >= 13, `the alerts: ${alerts.join(', ')}`);
    const tests = (parse(readFileSync(join(ops, 'prometheus-alerts.test.yml'), 'utf8')) as { tests: AlertTest[] }).tests;
    const checks = tests.flatMap((t) => t.alert_rule_test ?? []);
    const fires = new Set(checks.filter((c) => (c.exp_alerts ?? []).length > 0).map((c) => c.alertname));
    const quiet = new Set(checks.filter((c) => (c.exp_alerts ?? []).length === 0).map((c) => c.alertname));
    assert.deepEqual(
      alerts.filter((a) => !fires.has(a)),
      [],
      'alerts with no case where they fire',
    );
    assert.deepEqual(
      alerts.filter((a) => !quiet.has(a)),
      [],
      'alerts with no case where they stay quiet',
    );
    assert.deepEqual(
      [...fires, ...quiet].filter((a) => !alerts.includes(a)),
      [],
      'cases for alerts that do not exist',
    );
  });
});
