/**
 * `invoke <skill> --project P …`: runs a skill on the project's data the way an API client does (same input
 * schema, same checks against the project's data and entitlements, an invocation record, the skill workflow
 * started through the service's Temporal client on its task queue), waits for it, and prints the Markdown to
 * stdout, progress and notes to stderr. Exit 0 when it completed, 1 when it failed or was cancelled, 3 when it
 * is still running at --timeout (it keeps running; the id is printed).
 */
import type { WorkflowHandle } from '@temporalio/client';
import { userInfo } from 'node:os';
import type { Config } from '../config/config';
import { StreamBudget } from '../invocations/stream-budget';
import { InvocationRefused, InvocationService } from '../invocations/invoke';
import { describeRefusal } from '../invocations/refusal-text';
import { RateLimiter } from '../contracts/rate-limit';
import { findSkill, SKILLS } from '../skills/catalog';
import type { SkillDefinition, SkillName } from '../skills/types';
import { isTerminalStatus } from '../skills/invocation-status';
import { isFinalRevision } from '../store/invocations';
import type { InvocationRecord } from '../store/invocations';
import { connectTemporalLazy } from '../temporal/client';
import { invocationRun } from '../temporal/clients/skill-invocation';
import { requireString, type CliCommand } from './command';
import { API_OPTIONS, apiSettings } from './api-client';
import { invokeOverHttp } from './invoke-http';
import { withStore } from './with-store';
import type { Repositories } from '../store/repositories';
import { systemClock } from '../config/clock';

const POLL_MS = 200;
const DEFAULT_TIMEOUT_S = 300;

/** Flags that fill a skill's inputs, by skill: `--from 1.2.0` is `fromVersion`. */
const INPUT_FLAGS: Record<SkillName, Record<string, string>> = {
  release_notes_composer: { from: 'fromVersion', to: 'toVersion', tone: 'tone', 'exclude-contributors': 'excludeContributors' },
  proposal_writer: { customer: 'customerName', industry: 'industry', format: 'format', 'pain-point': 'painPoints' },
  incident_rca: { incident: 'incidentId', severity: 'severity' },
};
const LIST_INPUTS = new Set(['excludeContributors', 'painPoints']);

const say = (line: string) => process.stderr.write(`[invoke] ${line}\n`);

/** The inputs from --input (a JSON object) and the skill's own flags, which win. */
export function inputsFromFlags(skill: SkillDefinition, values: Record<string, unknown>): Record<string, unknown> {
  let inputs: Record<string, unknown> = {};
  if (typeof values.input === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(values.input);
    } catch {
      throw new Error('--input must be a JSON object');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('--input must be a JSON object');
    inputs = { ...(parsed as Record<string, unknown>) };
  }
  const flags = INPUT_FLAGS[skill.name];
  for (const [flag, value] of Object.entries(values)) {
    if (value === undefined || ['project', 'input', 'timeout', 'json', 'api', 'token'].includes(flag)) continue;
    const field = flags[flag];
    if (!field)
      throw new Error(
        `--${flag} is not an input of ${skill.name} (its flags: ${Object.keys(flags)
          .map((f) => `--${f}`)
          .join(', ')}, or --input JSON)`,
      );
    const list = Array.isArray(value) ? value : [String(value)];
    inputs[field] = LIST_INPUTS.has(field)
      ? list
          .flatMap((v) => (field === 'excludeContributors' ? v.split(',') : [v]))
          .map((v) => v.trim())
          .filter(Boolean)
      : list[list.length - 1];
  }
  return inputs;
}

/**
 * Starts the invocation as the API does (src/invocations/invoke.ts: the same checks, record and workflow
 * start, with the caller `cli:<user>`), and returns it with a handle on its run.
 */
async function start(
  repos: Repositories,
  config: Config,
  project: string,
  skill: SkillDefinition,
  inputs: Record<string, unknown>,
): Promise<{ record: InvocationRecord; handle: WorkflowHandle; close: () => Promise<void> }> {
  const { projects } = repos;
  const projectRecord = await projects.getProject(project);
  if (!projectRecord) throw new Error(`project "${project}" does not exist`);
  // Lazy: the checks against the store answer before Temporal is needed.
  const temporal = connectTemporalLazy(config.temporal);
  const service = new InvocationService({
    invocations: repos.invocations,
    keys: repos.idempotency,
    projects,
    documents: repos.documents,
    limiter: new RateLimiter(Number.MAX_SAFE_INTEGER, 60_000),
    client: temporal.client,
    eagerClient: () => null,
    taskQueue: config.temporal.skillsTaskQueue,
    entitlements: config.skills.entitlements,
    // The CLI holds no stream open; the service's limit is the configured one all the same.
    streams: new StreamBudget(config.agents.streamsPerCaller, config.agents.streamsMax),
    now: systemClock,
  });
  try {
    const { record } = await service.invoke({ caller: `cli:${userInfo().username}`, project: projectRecord, skill, inputs });
    return { record, handle: invocationRun(temporal.client, record.workflowId), close: () => temporal.close() };
  } catch (err) {
    await temporal.close();
    throw err instanceof InvocationRefused ? new Error(describeRefusal(err.refusal, project, skill.name)) : err;
  }
}

/**
 * Polls the record, telling each step as it is reached, until it is terminal with its final result (with a model,
 * the rewrite after the draft), the workflow ends, or time runs out (then a draft already stored is what there is).
 */
async function follow(repos: Repositories, record: InvocationRecord, handle: WorkflowHandle, timeoutMs: number): Promise<InvocationRecord> {
  const { invocations } = repos;
  let ended = false;
  handle.result().then(
    () => (ended = true),
    () => (ended = true),
  );
  const deadline = Date.now() + timeoutMs;
  let current = record;
  let shown = '';
  for (;;) {
    const step = `${current.status} (${current.progress.completedSteps}/${current.progress.totalSteps})${current.revision && !current.revision.final ? ": the draft; the model's rewrite follows" : ''}`;
    if (step !== shown) say(`${current._id}: ${step}`);
    shown = step;
    if (isTerminalStatus(current.status) && (isFinalRevision(current) || ended)) return current;
    const workflowEnded = ended;
    if (Date.now() >= deadline) return current;
    await new Promise((r) => setTimeout(r, POLL_MS));
    current = (await invocations.get(record.project, record._id)) ?? current;
    // The workflow ended without a terminal record (terminated by an operator): nothing will move it now.
    if (workflowEnded && !isTerminalStatus(current.status)) {
      const description = await handle.describe();
      throw new Error(`the workflow ${record.workflowId} ended as ${description.status.name} before the invocation finished`);
    }
  }
}

export const invokeCommand: CliCommand = {
  summary: 'Run a skill on a project through the service (Temporal, the worker) and print the Markdown result',
  usage:
    `<${SKILLS.map((s) => s.name).join('|')}> --project P [--timeout ${DEFAULT_TIMEOUT_S}] [--json] [--api URL --token JWT]\n` +
    '      --api/--token (or SKILLS_API_URL/SKILLS_TOKEN): through the HTTP API with a token, no store or Temporal access\n' +
    '      release_notes_composer: --from 1.2.0 --to 2.0.0 [--tone casual|neutral|formal] [--exclude-contributors "A,B"]\n' +
    '      proposal_writer: --customer NAME --format email|one-pager|full-deck [--industry I] [--pain-point TEXT]…\n' +
    '      incident_rca: --incident INC-1 --severity SEV-1|SEV-2|SEV-3\n' +
    '      any skill: --input \'{"fromVersion":"1.2.0",…}\'',
  positionals: 1,
  options: {
    project: { type: 'string' },
    ...API_OPTIONS,
    input: { type: 'string' },
    timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_S) },
    json: { type: 'boolean', default: false },
    from: { type: 'string' },
    to: { type: 'string' },
    tone: { type: 'string' },
    'exclude-contributors': { type: 'string', multiple: true },
    customer: { type: 'string' },
    industry: { type: 'string' },
    format: { type: 'string' },
    'pain-point': { type: 'string', multiple: true },
    incident: { type: 'string' },
    severity: { type: 'string' },
  },
  async run(values, [skillName]) {
    const skill = findSkill(skillName!);
    if (!skill) throw new Error(`unknown skill "${skillName}"; skills: ${SKILLS.map((s) => s.name).join(', ')}`);
    const project = requireString(values, 'project');
    const timeoutS = Number(values.timeout);
    if (!Number.isFinite(timeoutS) || timeoutS <= 0 || timeoutS > 86_400)
      throw new Error('--timeout must be a number of seconds, at most 86400');
    const raw = inputsFromFlags(skill, { ...values, json: undefined, timeout: undefined });
    const settings = apiSettings(values);
    if (settings) {
      const outcome = await invokeOverHttp({ ...settings, project, skill, inputs: raw, timeoutMs: timeoutS * 1000, say });
      return finish(outcome.kind === 'running' ? null : outcome.invocation, outcome.invocation.id, project, timeoutS, values.json === true);
    }

    return withStore(async (repos, config) => {
      const { record, handle, close } = await start(repos, config, project, skill, raw);
      try {
        const done = await follow(repos, record, handle, timeoutS * 1000);
        return finish(isTerminalStatus(done.status) ? done : null, done._id, project, timeoutS, values.json === true);
      } finally {
        await close();
      }
    });
  },
};

/** Prints the outcome and says the exit status: 0 completed, 1 failed or cancelled, 3 still running (null). */
function finish(
  done: { status: string; result?: unknown; error?: { code: string; message: string } | null } | null,
  id: string,
  project: string,
  timeoutS: number,
  json: boolean,
): number {
  if (done === null) {
    say(`still running after ${timeoutS} s; it keeps running: GET /v1/agents/${project}/invocations/${id}`);
    return 3;
  }
  if (done.status !== 'completed') {
    say(`${done.status}${done.error ? `: ${done.error.code}: ${done.error.message}` : ''}`);
    return 1;
  }
  const result = done.result as { markdown: string; generator: string; notes?: string[] } | null | undefined;
  if (!result) throw new Error(`invocation ${id} completed without a result`);
  for (const note of result.notes ?? []) say(`note: ${note}`);
  say(`completed by the ${result.generator} drafter`);
  process.stdout.write(json ? `${JSON.stringify({ id, status: done.status, result }, null, 2)}\n` : result.markdown);
  return 0;
}
