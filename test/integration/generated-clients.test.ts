/**
 * Clients generated from the served OpenAPI document by the generators people use, with their default options:
 * openapi-python-client's package and openapi-generator 7's `-g python` package compile, import and make typed calls
 * against the real stack (the TypeScript client, openapi-typescript with openapi-fetch, is built and called in
 * openapi-contract.test.ts). The generators are installed once into the user cache by
 * scripts/ensure-python-client-generator.sh and scripts/ensure-openapi-generator.sh (npm test runs both first).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness, type Harness } from '../support/harness';
import { repoRoot } from '../support/repo-root';
import { projectToken } from '../support/tokens';
import { PROJECT, loadDemo } from './skills-helpers';

/** What a developer writes against the generated package: typed models in, typed models out. */
const PYTHON_CLIENT = `
import json, sys
sys.path.insert(0, sys.argv[1])
from skills_billing_service_client import AuthenticatedClient
from skills_billing_service_client.api.skills import get_agents_by_project_skills, post_agents_by_project_skills_by_skill
from skills_billing_service_client.models import Invocation, ReleaseNotesComposerInputs, SkillCatalog
from skills_billing_service_client.models.post_agents_by_project_skills_by_skill_skill import PostAgentsByProjectSkillsBySkillSkill

client = AuthenticatedClient(base_url=sys.argv[2], token=sys.argv[3], raise_on_unexpected_status=True)
catalog = get_agents_by_project_skills.sync(client=client, project=sys.argv[4])
assert isinstance(catalog, SkillCatalog), catalog
# A release-notes body without tone: the service fills in its default.
done = post_agents_by_project_skills_by_skill.sync(
    client=client,
    project=sys.argv[4],
    skill=PostAgentsByProjectSkillsBySkillSkill.RELEASE_NOTES_COMPOSER,
    body=ReleaseNotesComposerInputs(from_version="1.2.1", to_version="2.0.0"),
    prefer="wait=30",
)
assert isinstance(done, Invocation), done
print(json.dumps({
    "skills": [str(s.name) for s in catalog.skills],
    "status": str(done.status),
    "markdown": done.result.markdown if done.result else None,
}))
`;

/** A tool a script in scripts/ installs: its path from `envVar` when npm test ran the script, else the script's answer now. */
function ensured(envVar: string, script: string): string | null {
  if (process.env[envVar]) return process.env[envVar]!;
  // Run alone (not from npm test): install it now, its progress on stderr.
  const r = spawnSync('bash', [join(repoRoot(), 'scripts', script)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return r.status === 0 ? r.stdout.trim() : null;
}

/**
 * For a describe: the tool, a stack with the demo project and a worker, and a scratch folder; the describe is skipped
 * loudly when the tool cannot be had (a failure under CI=true).
 */
function clientStack(what: string, envVar: string, script: string) {
  const s = { tool: '', dir: '', h: undefined as unknown as Harness };
  before(async function () {
    const found = ensured(envVar, script);
    if (!found) {
      if (process.env.CI === 'true') throw new Error(`CI=true and ${what} could not be installed`);
      console.error(`\n[clients] !!! ${what} is not installed: ITS GENERATED-CLIENT TEST DID NOT RUN !!!\n`);
      this.skip();
    }
    s.tool = found;
    s.h = await startHarness();
    await loadDemo(s.h);
    await s.h.startWorker();
    s.dir = mkdtempSync(join(tmpdir(), 'generated-client-'));
  });
  after(async () => {
    await s.h?.close();
    if (s.dir) rmSync(s.dir, { recursive: true, force: true });
  });
  return s;
}

/** A Python script run asynchronously (the API and the worker it calls run in this process): its JSON answer. */
async function runPython(python: string, args: string[], env?: NodeJS.ProcessEnv): Promise<unknown> {
  const child = spawn(python, args, { env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // 'close': the whole output has been read (after 'exit' it may still be arriving).
  const code = await new Promise((r) => child.once('close', r));
  assert.equal(code, 0, stderr);
  return JSON.parse(stdout);
}

describe('generated clients (openapi-python-client, default options) against the real stack', function () {
  this.timeout(300_000);
  const s = clientStack('openapi-python-client', 'OPENAPI_PYTHON_CLIENT_VENV', 'ensure-python-client-generator.sh');
  const member = projectToken([PROJECT]);

  it('generates a package that compiles, imports, and makes typed calls (a release-notes body without tone)', async () => {
    const { tool: venv, dir, h } = s;
    writeFileSync(join(dir, 'openapi.json'), (await h.request('GET', '/openapi.json')).text);
    // Its own tools on PATH, as a pipx or venv install has them: the generator formats its output with ruff.
    const env = { ...process.env, PATH: `${join(venv, 'bin')}:${process.env.PATH ?? ''}` };
    const generated = spawnSync(join(venv, 'bin', 'openapi-python-client'), ['generate', '--path', 'openapi.json'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    assert.equal(generated.status, 0, generated.stdout + generated.stderr);
    const said = generated.stdout + generated.stderr;
    assert.doesNotMatch(said, /warning|error/i, `generated without warnings:\n${said}`);
    const project = join(dir, 'skills-billing-service-client');
    const compiled = spawnSync(join(venv, 'bin', 'python'), ['-m', 'compileall', '-q', project], { env, encoding: 'utf8' });
    assert.equal(compiled.status, 0, `no syntax error: ${compiled.stdout}${compiled.stderr}`);

    writeFileSync(join(dir, 'call.py'), PYTHON_CLIENT);
    const out = (await runPython(join(venv, 'bin', 'python'), [join(dir, 'call.py'), project, h.baseUrl, member, PROJECT], env)) as {
      skills: string[];
      status: string;
      markdown: string | null;
    };
    assert.deepEqual(out.skills, ['release_notes_composer', 'proposal_writer', 'incident_rca']);
    assert.equal(out.status, 'completed');
    assert.match(out.markdown ?? '', /^# /);
  });
});

/** The same calls through openapi-generator's Python client: its pydantic models in, its pydantic models out. */
const OPENAPI_GENERATOR_CLIENT = `
import json, sys
sys.path.insert(0, sys.argv[1])
import openapi_client
from openapi_client.api.skills_api import SkillsApi
from openapi_client.api.projects_api import ProjectsApi
from openapi_client.models import (
    DocumentPage, DocumentRelease, Invocation, PostAgentsByProjectSkillsBySkillRequest, SkillCatalog,
    SkillInputReleaseNotesComposer,
)

config = openapi_client.Configuration(host=sys.argv[2], access_token=sys.argv[3])
with openapi_client.ApiClient(config) as api:
    skills = SkillsApi(api)
    catalog = skills.get_agents_by_project_skills(project=sys.argv[4])
    assert isinstance(catalog, SkillCatalog), catalog
    # The documents' oneOf, told apart by its discriminator (kind).
    releases = ProjectsApi(api).get_projects_by_project_documents(project=sys.argv[4], kind="release", limit=5)
    assert isinstance(releases, DocumentPage), releases
    kinds = sorted({type(d.actual_instance).__name__ for d in releases.documents})
    # A release-notes body without tone: the service fills in its default.
    done = skills.post_agents_by_project_skills_by_skill(
        project=sys.argv[4],
        skill="release_notes_composer",
        post_agents_by_project_skills_by_skill_request=PostAgentsByProjectSkillsBySkillRequest(
            SkillInputReleaseNotesComposer(from_version="1.2.1", to_version="2.0.0")
        ),
        prefer="wait=30",
    )
    assert isinstance(done, Invocation), done
    print(json.dumps({
        "skills": [s.name for s in catalog.skills],
        "releaseKinds": kinds,
        "status": str(done.status.value if hasattr(done.status, "value") else done.status),
        "markdown": done.result.markdown if done.result else None,
    }))
`;

/** What openapi-generator names an operation's method: its operationId in snake_case. */
const snakeCase = (id: string) => id.replace(/(?<!^)(?=[A-Z])/g, '_').toLowerCase();

describe('generated clients (openapi-generator 7, -g python) against the real stack', function () {
  this.timeout(300_000);
  const s = clientStack('openapi-generator', 'OPENAPI_GENERATOR_DIR', 'ensure-openapi-generator.sh');
  const member = projectToken([PROJECT]);

  /** openapi-generator-cli generate -g python, with `extra` options, into dir/NAME; what it said, less its notices. */
  function generate(name: string, extra: string[]): string[] {
    const jar = join(s.tool, 'openapi-generator-cli.jar');
    const r = spawnSync('java', ['-jar', jar, 'generate', '-i', 'openapi.json', '-g', 'python', '-o', name, ...extra], {
      cwd: s.dir,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(r.status, 0, r.stdout.slice(-4000) + r.stderr);
    // Its own complaints about the document (discriminators, names), not its notice that 3.1 support is in beta.
    return (r.stdout + r.stderr)
      .split('\n')
      .filter((l) => / WARN /.test(l) && !/3\.1 support is still in beta|Failed to get the schema name/.test(l));
  }

  /** The files of a generated package that are not valid Python (compileall names each it could not compile). */
  function uncompilable(python: string, pkg: string): string[] {
    const r = spawnSync(python, ['-m', 'compileall', '-q', pkg], { encoding: 'utf8' });
    const files = [...(r.stdout + r.stderr).matchAll(/Error compiling '([^']+)'/g)].map((m) => m[1]!.slice(pkg.length + 1));
    assert.equal(r.status === 0, files.length === 0, r.stdout + r.stderr);
    return files;
  }

  it('by default: every path operation has its method, and the package imports and makes typed calls', async () => {
    const { tool: tools, dir, h } = s;
    const served = (await h.request('GET', '/openapi.json')).text;
    writeFileSync(join(dir, 'openapi.json'), served);
    assert.deepEqual(generate('client', []), [], 'no warning about the document');

    // One API file per tag: an operation whose tag's file another tag's operations overwrote would be missing.
    const doc = JSON.parse(served) as { paths: Record<string, object>; webhooks: Record<string, object> };
    const ids = (items: object[]) =>
      items.flatMap((item) => Object.values(item).flatMap((op: { operationId?: string }) => (op?.operationId ? [op.operationId] : [])));
    const operationIds = ids(Object.values(doc.paths));
    assert.ok(operationIds.length > 50, `the document's operations: ${operationIds.length}`);
    const apiDir = join(dir, 'client', 'openapi_client', 'api');
    const methods = new Set(
      readdirSync(apiDir)
        .filter((f) => f.endsWith('_api.py'))
        .flatMap((f) => [...readFileSync(join(apiDir, f), 'utf8').matchAll(/^ {4}def ([a-z0-9_]+)\(/gm)].map((m) => m[1]!)),
    );
    assert.deepEqual(
      operationIds.filter((id) => !methods.has(snakeCase(id))),
      [],
      'every operation has its method',
    );
    // The webhooks entry (what the service sends, not a call a client makes) goes to a file of its own, which this
    // generator writes without its parameters' types: not valid Python, and not imported by the package. The one
    // flag in docs/operations.md leaves it out (next test).
    assert.deepEqual(ids(Object.values(doc.webhooks)), ['receiveBillingEvent']);
    assert.ok(methods.has('receive_billing_event'));
    const python = join(tools, 'python', 'venv', 'bin', 'python');
    assert.deepEqual(uncompilable(python, join(dir, 'client')), ['openapi_client/api/outbound_webhook_deliveries_api.py']);

    writeFileSync(join(dir, 'call.py'), OPENAPI_GENERATOR_CLIENT);
    const out = (await runPython(python, [join(dir, 'call.py'), join(dir, 'client'), h.baseUrl, member, PROJECT])) as {
      skills: string[];
      releaseKinds: string[];
      status: string;
      markdown: string | null;
    };
    assert.deepEqual(out.skills, ['release_notes_composer', 'proposal_writer', 'incident_rca']);
    assert.deepEqual(out.releaseKinds, ['DocumentRelease'], 'release documents read as DocumentRelease');
    assert.equal(out.status, 'completed');
    assert.match(out.markdown ?? '', /^# /);
  });

  it('with --global-property apis,models,supportingFiles (docs/operations.md): every file is valid Python', () => {
    const { tool: tools, dir } = s;
    // Run after the test above, which fetched the document into dir.
    assert.deepEqual(generate('client-flag', ['--global-property', 'apis,models,supportingFiles']), []);
    const python = join(tools, 'python', 'venv', 'bin', 'python');
    assert.deepEqual(uncompilable(python, join(dir, 'client-flag')), []);
    const imported = spawnSync(python, ['-c', 'import openapi_client.api as a; print(sorted(n for n in dir(a) if n.endswith("Api")))'], {
      cwd: join(dir, 'client-flag'),
      encoding: 'utf8',
    });
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /'SkillsApi'/);
    assert.match(imported.stdout, /'OutboundWebhooksPrivatePreviewApi'/);
  });
});
