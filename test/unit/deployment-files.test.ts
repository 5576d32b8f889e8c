import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '../support/repo-root';

const root = repoRoot();
const configSource = readFileSync(join(root, 'src/config.ts'), 'utf8');
/** Every variable loadConfig reads, taken from its source so a new variable cannot be forgotten here. */
const configVars = [...configSource.matchAll(/\b(?:str|required|int|oneOf|url)\('([A-Z0-9_]+)'/g)].map((m) => m[1]!);

describe('deployment files agree with src/config.ts', () => {
  it('finds the variables config reads', () => {
    assert.ok(configVars.includes('TEMPORAL_ADDRESS') && configVars.includes('JWT_SECRET') && configVars.length > 15);
  });

  it('.env.example documents every variable', () => {
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const missing = configVars.filter((v) => !new RegExp(`^#?\\s*${v}=`, 'm').test(example));
    assert.deepEqual(missing, []);
  });

  describe('docker-compose.yml', () => {
    const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { image?: string; build?: unknown; ports?: string[]; environment?: Record<string, string>; command?: string[]; depends_on?: unknown }>;
    };

    it('has Temporal (server and UI), MongoDB 7, an SMTP catcher, the API and the worker', () => {
      const s = compose.services;
      assert.match(s.temporal!.image!, /^temporalio\/auto-setup:/);
      assert.match(s['temporal-ui']!.image!, /^temporalio\/ui:/);
      assert.match(s.mongodb!.image!, /^mongo:7/);
      assert.ok(s.mailpit!.image);
      assert.ok(s.api!.build && s.worker!.build, 'api and worker are built from the Dockerfile');
      assert.deepEqual(s.api!.command, ['node', 'dist/src/api/server.js']);
      assert.deepEqual(s.worker!.command, ['node', 'dist/src/worker.js']);
    });

    it('publishes the API, the Temporal frontend and UI, and MongoDB on loopback', () => {
      const ports = Object.values(compose.services).flatMap((s) => s.ports ?? []);
      for (const p of ['127.0.0.1:3000:3000', '127.0.0.1:7233:7233', '127.0.0.1:8233:8080', '127.0.0.1:27017:27017']) assert.ok(ports.includes(p), p);
      assert.ok(ports.every((p) => p.startsWith('127.0.0.1:')), 'nothing is published beyond loopback');
    });

    it('gives the API and the worker every required variable, and only known ones', () => {
      for (const name of ['api', 'worker']) {
        const env = compose.services[name]!.environment!;
        for (const required of ['TEMPORAL_ADDRESS', 'MONGODB_URI', 'JWT_SECRET']) assert.ok(env[required], `${name} needs ${required}`);
        const unknown = Object.keys(env).filter((k) => !configVars.includes(k));
        assert.deepEqual(unknown, [], `${name} sets variables config does not read`);
      }
    });
  });
});
