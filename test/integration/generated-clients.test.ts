/**
 * Clients generated from the served OpenAPI document by the generators people use, with their default options:
 * openapi-python-client's package compiles, imports and makes typed calls against the real stack (the TypeScript
 * client, openapi-typescript with openapi-fetch, is built and called in openapi-contract.test.ts). The generator
 * is installed once into the user cache by scripts/ensure-python-client-generator.sh (npm test runs it first).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

function generatorVenv(): string | null {
  if (process.env.OPENAPI_PYTHON_CLIENT_VENV) return process.env.OPENAPI_PYTHON_CLIENT_VENV;
  // Run alone (not from npm test): install it now, its progress on stderr.
  const ensured = spawnSync('bash', [join(repoRoot(), 'scripts', 'ensure-python-client-generator.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return ensured.status === 0 ? ensured.stdout.trim() : null;
}

describe('generated clients (openapi-python-client, default options) against the real stack', function () {
  this.timeout(300_000);
  let h: Harness;
  let venv = '';
  let dir = '';
  const member = projectToken([PROJECT]);
  before(async function () {
    const found = generatorVenv();
    if (!found) {
      if (process.env.CI === 'true') throw new Error('CI=true and openapi-python-client could not be installed');
      console.error('\n[clients] !!! openapi-python-client is not installed: THE PYTHON CLIENT TEST DID NOT RUN !!!\n');
      this.skip();
    }
    venv = found;
    h = await startHarness();
    await loadDemo(h);
    await h.startWorker();
    dir = mkdtempSync(join(tmpdir(), 'python-client-'));
  });
  after(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('generates a package that compiles, imports, and makes typed calls (a release-notes body without tone)', async () => {
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
    // Asynchronously: the API and the worker it calls run in this process.
    const { spawn } = await import('node:child_process');
    const child = spawn(join(venv, 'bin', 'python'), [join(dir, 'call.py'), project, h.baseUrl, member, PROJECT], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((r) => child.once('exit', r));
    assert.equal(code, 0, stderr);
    const out = JSON.parse(stdout) as { skills: string[]; status: string; markdown: string | null };
    assert.deepEqual(out.skills, ['release_notes_composer', 'proposal_writer', 'incident_rca']);
    assert.equal(out.status, 'completed');
    assert.match(out.markdown ?? '', /^# /);
  });
});
