import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../../../src/api/openapi';
import { testConfig } from '../../support/config';
import { repoRoot } from '../../support/repo-root';

/**
 * Warnings the document keeps, each for a reason: the five public GETs that answer no 4xx (liveness, readiness,
 * the console page, this document, the public A2A agent card) have none to describe.
 */
const KEPT_WARNINGS = [
  'redocly operation-4xx-response #/paths/~1healthz/get/responses',
  'redocly operation-4xx-response #/paths/~1readyz/get/responses',
  'redocly operation-4xx-response #/paths/~1dashboard/get/responses',
  'redocly operation-4xx-response #/paths/~1openapi.json/get/responses',
  'redocly operation-4xx-response #/paths/~1.well-known~1agent-card.json/get/responses',
];

/** Runs a linter's CLI from node_modules/.bin in the repository (its config files are there). */
function run(bin: string, args: string[]): string {
  const root = repoRoot();
  const res = spawnSync(join(root, 'node_modules', '.bin', bin), args, {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  if (res.error) throw res.error;
  return res.stdout;
}

describe('the OpenAPI document passes Redocly (recommended) and Spectral (spectral:oas)', function () {
  this.timeout(120_000);
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    file = join(dir, 'openapi.json');
    // The document as the API serves it with the default PUBLIC_BASE_URL.
    writeFileSync(file, JSON.stringify(buildOpenApiDocument(testConfig().http.publicBaseUrl), null, 2));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('Redocly recommended: no error, no warning but the kept ones', () => {
    const out = JSON.parse(run('redocly', ['lint', file, '--config', 'redocly.yaml', '--format', 'json'])) as {
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    const errors = out.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    assert.deepEqual(errors, []);
    const warnings = out.problems.filter((p) => p.severity !== 'error').map((p) => `redocly ${p.ruleId} ${p.location[0]?.pointer}`);
    assert.deepEqual(
      warnings.filter((w) => !KEPT_WARNINGS.includes(w)),
      [],
      'new warnings',
    );
  });

  it('Spectral spectral:oas: nothing at all', () => {
    const out = JSON.parse(
      run('spectral', ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet', '--fail-severity', 'error']),
    ) as {
      code: string;
      severity: number;
      message: string;
      path: string[];
    }[];
    assert.deepEqual(
      out.map((p) => `${['error', 'warning', 'info', 'hint'][p.severity]} ${p.code} ${p.path.join('.')}: ${p.message}`),
      [],
    );
  });
});
