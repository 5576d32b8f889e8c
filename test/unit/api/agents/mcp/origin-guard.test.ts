import assert from 'node:assert/strict';
import type { Context } from 'koa';
import { mcpOriginGuard } from '../../../../../src/api/agents/mcp/origin-guard';
import { HttpProblem } from '../../../../../src/api/http/problem';
import { loadConfig } from '../../../../../src/config/config';

const env = {
  TEMPORAL_ADDRESS: 'a:1',
  MONGODB_URI: 'mongodb://a',
  JWT_SECRET: 'x'.repeat(40),
  PUBLIC_BASE_URL: 'https://skills.example.com',
};

async function answer(extra: Record<string, string>, host: string, origin?: string): Promise<string> {
  const guard = mcpOriginGuard(loadConfig({ ...env, ...extra }).agents);
  const ctx = { host, get: (name: string) => (name === 'Origin' ? (origin ?? '') : '') } as unknown as Context;
  try {
    await guard(ctx, async () => undefined);
    return 'passed';
  } catch (err) {
    assert.ok(err instanceof HttpProblem);
    return err.code;
  }
}

describe('mcpOriginGuard (DNS rebinding)', () => {
  it("by default allows PUBLIC_BASE_URL's origin and host (any port without one), and loopback only outside production", async () => {
    assert.equal(await answer({}, 'skills.example.com', 'https://skills.example.com'), 'passed');
    assert.equal(await answer({}, 'skills.example.com:443'), 'passed');
    assert.equal(await answer({}, 'skills.example.com', 'https://evil.example'), 'forbidden_origin');
    assert.equal(await answer({}, 'skills.example.com', 'https://skills.example.com.evil.example'), 'forbidden_origin');
    assert.equal(await answer({}, 'evil.example'), 'forbidden_host');
    assert.equal(await answer({}, '127.0.0.1:3000', 'http://localhost:6274'), 'passed');
    assert.equal(await answer({}, '[::1]:3000'), 'passed');
    assert.equal(await answer({ NODE_ENV: 'production' }, '127.0.0.1:3000'), 'forbidden_host');
    assert.equal(await answer({ NODE_ENV: 'production' }, 'skills.example.com', 'http://localhost:6274'), 'forbidden_origin');
    assert.equal(await answer({}, 'skills.example.com', 'null'), 'forbidden_origin');
  });

  it('takes lists of origins and hosts; a host with a port matches that port only', async () => {
    const lists = {
      MCP_ALLOWED_ORIGINS: 'https://a.example/, https://b.example:8443',
      MCP_ALLOWED_HOSTS: 'api.internal:3000,B.example',
      NODE_ENV: 'production',
    };
    assert.equal(await answer(lists, 'api.internal:3000', 'https://b.example:8443'), 'passed');
    assert.equal(await answer(lists, 'b.example:8443', 'https://a.example'), 'passed');
    assert.equal(await answer(lists, 'api.internal:3001'), 'forbidden_host');
    assert.equal(await answer(lists, 'skills.example.com'), 'forbidden_host', 'the lists replace the default');
    assert.throws(() => loadConfig({ ...env, MCP_ALLOWED_ORIGINS: 'not a url' }), /MCP_ALLOWED_ORIGINS/);
  });
});
