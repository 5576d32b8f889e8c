/**
 * `invoke … --api URL`: the same invocation through the service's HTTP API with a token (SKILLS_API_URL,
 * SKILLS_TOKEN), for a release script or CI job that should hold an API token, not the store's and Temporal's
 * addresses and credentials. Waits with `Prefer: wait`, then polls until done or the timeout.
 */
import { isTerminalStatus } from '../skills/invocation-status';
import type { SkillDefinition } from '../skills/types';
import { callApi, type ApiSettings } from './api-client';

const WAIT_S = 30;
const POLL_MS = 500;

interface InvocationBody {
  id: string;
  status: string;
  progress?: { completedSteps: number; totalSteps: number };
  result?: { markdown: string; generator: string; notes?: string[] } | null;
  error?: { code: string; message: string } | null;
  revision?: { number: number; final: boolean } | null;
}

export async function invokeOverHttp(
  args: ApiSettings & {
    project: string;
    skill: SkillDefinition;
    inputs: Record<string, unknown>;
    timeoutMs: number;
    say: (line: string) => void;
  },
): Promise<{ kind: 'done'; invocation: InvocationBody } | { kind: 'running'; invocation: InvocationBody }> {
  const { project, skill, inputs, timeoutMs, say } = args;
  const path = `/v1/agents/${encodeURIComponent(project)}`;
  let current = await callApi<InvocationBody>(args, 'POST', `${path}/skills/${skill.name}`, inputs, {
    Prefer: `wait=${Math.min(WAIT_S, Math.ceil(timeoutMs / 1000))}`,
  });
  const deadline = Date.now() + timeoutMs;
  let shown = '';
  for (;;) {
    const pending = current.revision?.final === false;
    const step = `${current.status}${current.progress ? ` (${current.progress.completedSteps}/${current.progress.totalSteps})` : ''}${pending ? ": the draft; the model's rewrite follows" : ''}`;
    if (step !== shown) say(`${current.id}: ${step}`);
    shown = step;
    // With a model, the draft comes first and the rewrite replaces it: wait for the final version while there is time.
    if (isTerminalStatus(current.status) && !pending) return { kind: 'done', invocation: current };
    if (Date.now() >= deadline) return { kind: isTerminalStatus(current.status) ? 'done' : 'running', invocation: current };
    await new Promise((r) => setTimeout(r, POLL_MS));
    current = await callApi<InvocationBody>(args, 'GET', `${path}/invocations/${current.id}`);
  }
}
