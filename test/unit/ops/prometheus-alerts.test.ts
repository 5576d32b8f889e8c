import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
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

  it('fires the backpressure alerts when, and only when, their tests say (ops/prometheus-alerts.test.yml)', () => {
    const r = spawnSync(promtool, ['test', 'rules', 'prometheus-alerts.test.yml'], { cwd: ops, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
