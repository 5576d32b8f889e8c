import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../../src/config/config';
import { productionProblems } from '../../../src/config/production';

const base = {
  TEMPORAL_ADDRESS: '127.0.0.1:7233',
  MONGODB_URI: 'mongodb://127.0.0.1:27017',
  JWT_SECRET: 'x'.repeat(40),
};

describe('productionProblems: what the API needs in production (NODE_ENV=production)', () => {
  it('names JWT_ISSUER, JWT_AUDIENCE and METRICS_TOKEN when missing, and nothing outside production', () => {
    const problems = productionProblems(loadConfig({ ...base, NODE_ENV: 'production' }));
    assert.deepEqual(
      problems.map((p) => p.split(' ')[0]),
      ['JWT_ISSUER', 'JWT_AUDIENCE', 'METRICS_TOKEN'],
    );
    assert.deepEqual(productionProblems(loadConfig(base)), []);
    const complete = { ...base, NODE_ENV: 'production', JWT_ISSUER: 'i', JWT_AUDIENCE: 'a', METRICS_TOKEN: 't'.repeat(20) };
    assert.deepEqual(productionProblems(loadConfig(complete)), []);
  });
});

describe('loadConfig', () => {
  it('applies documented defaults', () => {
    const c = loadConfig(base);
    assert.equal(c.http.port, 3000);
    assert.equal(c.http.host, '127.0.0.1');
    assert.equal(c.temporal.namespace, 'default');
    assert.deepEqual(c.jwt.algorithms, ['HS256']);
    assert.equal(c.webhooks.operatorAuthorization, null);
    assert.equal(c.webhooks.rotationGraceHours, 24);
    assert.deepEqual(c.skills.entitlements, {});
  });

  it('keeps the webhook inbox, mail outbox and event log 30 days and finished invocations forever by default', () => {
    assert.deepEqual(loadConfig(base).retention, { webhookEventDays: 30, mailOutboxDays: 30, eventLogDays: 30, invocationDays: null });
    const c = loadConfig({
      ...base,
      WEBHOOK_EVENT_RETENTION_DAYS: '7',
      MAIL_OUTBOX_RETENTION_DAYS: '3',
      EVENT_LOG_RETENTION_DAYS: '5',
      INVOCATION_RETENTION_DAYS: '90',
    });
    assert.deepEqual(c.retention, { webhookEventDays: 7, mailOutboxDays: 3, eventLogDays: 5, invocationDays: 90 });
  });

  it('bounds the event log per scope (50,000) and its unattributed bucket (10,000) by default', () => {
    assert.deepEqual(loadConfig(base).eventLog, { maxPerScope: 50_000, maxUnattributed: 10_000 });
    const c = loadConfig({ ...base, EVENT_LOG_MAX_PER_SCOPE: '1000', EVENT_LOG_MAX_UNATTRIBUTED: '200' });
    assert.deepEqual(c.eventLog, { maxPerScope: 1000, maxUnattributed: 200 });
    assert.throws(() => loadConfig({ ...base, EVENT_LOG_MAX_PER_SCOPE: '0' }), /EVENT_LOG_MAX_PER_SCOPE/);
  });

  it("asks a model for structured output by JSON schema unless told JSON mode (llama.cpp's Python server)", () => {
    assert.equal(loadConfig(base).llm.responseFormat, 'json_schema');
    assert.equal(loadConfig({ ...base, LLM_RESPONSE_FORMAT: 'json_object' }).llm.responseFormat, 'json_object');
    assert.throws(() => loadConfig({ ...base, LLM_RESPONSE_FORMAT: 'xml' }), /LLM_RESPONSE_FORMAT/);
  });

  it('refuses an inbox retention shorter than the provider retry window', () => {
    assert.throws(
      () => loadConfig({ ...base, WEBHOOK_EVENT_RETENTION_DAYS: '1' }),
      /WEBHOOK_EVENT_RETENTION_DAYS must be an integer between 2/,
    );
    assert.throws(() => loadConfig({ ...base, INVOCATION_RETENTION_DAYS: '0' }), /INVOCATION_RETENTION_DAYS/);
  });

  it('lists every bad variable in one error', () => {
    try {
      loadConfig({ PORT: 'eighty', JWT_SECRET: 'short', LOG_LEVEL: 'loud', SKILL_ENTITLEMENTS: '[1]' });
      assert.fail('expected ConfigError');
    } catch (err) {
      assert.ok(err instanceof ConfigError);
      const text = err.problems.join('\n');
      for (const name of ['TEMPORAL_ADDRESS', 'MONGODB_URI', 'PORT', 'JWT_SECRET', 'LOG_LEVEL', 'SKILL_ENTITLEMENTS']) {
        assert.match(text, new RegExp(name), `${name} should be reported`);
      }
    }
  });

  it('reads TRUST_PROXY (true or false, nothing else) and WORKFLOW_BUNDLE_PATH', () => {
    assert.equal(loadConfig(base).http.trustProxy, false);
    assert.equal(loadConfig({ ...base, TRUST_PROXY: 'true' }).http.trustProxy, true);
    assert.throws(
      () => loadConfig({ ...base, TRUST_PROXY: 'yes' }),
      (err: unknown) => err instanceof ConfigError && /TRUST_PROXY/.test(err.message),
    );
    assert.equal(loadConfig(base).worker.bundlePath, null);
    assert.equal(loadConfig({ ...base, WORKFLOW_BUNDLE_PATH: '' }).worker.bundlePath, null);
    assert.equal(
      loadConfig({ ...base, WORKFLOW_BUNDLE_PATH: '/app/dist/workflow-bundle.js' }).worker.bundlePath,
      '/app/dist/workflow-bundle.js',
    );
  });

  it('has no default secret: a missing JWT key is an error', () => {
    assert.throws(() => loadConfig({ TEMPORAL_ADDRESS: 'a:1', MONGODB_URI: 'mongodb://a' }), /JWT_SECRET or JWT_PUBLIC_KEY is required/);
  });

  it('refuses an algorithm whose key is not configured', () => {
    assert.throws(() => loadConfig({ ...base, JWT_ALGORITHMS: 'HS256,RS256' }), /RS256 but JWT_PUBLIC_KEY is not set/);
  });

  it('requires a model name with an LLM endpoint', () => {
    assert.throws(() => loadConfig({ ...base, LLM_BASE_URL: 'http://127.0.0.1:9/v1' }), /LLM_MODEL is required/);
    assert.equal(loadConfig({ ...base, LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'm' }).llm.model, 'm');
  });

  it('parses the skill entitlement map', () => {
    assert.deepEqual(loadConfig({ ...base, SKILL_ENTITLEMENTS: '{"incident_rca":"pro"}' }).skills.entitlements, { incident_rca: 'pro' });
  });
});
