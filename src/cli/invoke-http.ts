/**
 * `invoke … --api URL`: the same invocation through the service's HTTP API with a token (SKILLS_API_URL,
 * SKILLS_TOKEN), for a release script or CI job that should hold an API token, not the store's and Temporal's
 * addresses and credentials. Waits with `Prefer: wait`, then polls until done or the timeout.
 */
import type { SkillDefinition } from '../skills/types';

const WAIT_S = 30;
const POLL_MS = 500;

interface InvocationBody {
  id: string;
  status: string;
  progress?: { completedSteps: number; totalSteps: number };
  result?: { markdown: string; generator: string; notes?: string[] } | null;
  error?: { code: string; message: string } | null;
}

export async function invokeOverHttp(args: {
  api: string;
  token: string;
  project: string;
  skill: SkillDefinition;
  inputs: Record<string, unknown>;
  timeoutMs: number;
  say: (line: string) => void;
}): Promise<{ kind: 'done'; invocation: InvocationBody } | { kind: 'running'; invocation: InvocationBody }> {
  const { api, token, project, skill, inputs, timeoutMs, say } = args;
  const base = api.replace(/\/$/, '');
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const res = await fetch(`${base}/v1/agents/${encodeURIComponent(project)}/skills/${skill.name}`, {
    method: 'POST',
    headers: { ...headers, Prefer: `wait=${Math.min(WAIT_S, Math.ceil(timeoutMs / 1000))}` },
    body: JSON.stringify(inputs),
  });
  const body = (await res.json().catch(() => ({}))) as InvocationBody & { detail?: string; code?: string };
  if (res.status !== 200 && res.status !== 202) throw new Error(`${res.status} ${body.code ?? ''}: ${body.detail ?? 'the API refused the invocation'}`);
  const deadline = Date.now() + timeoutMs;
  let current = body;
  let shown = '';
  for (;;) {
    const step = `${current.status}${current.progress ? ` (${current.progress.completedSteps}/${current.progress.totalSteps})` : ''}`;
    if (step !== shown) say(`${current.id}: ${step}`);
    shown = step;
    if (['completed', 'failed', 'cancelled'].includes(current.status)) return { kind: 'done', invocation: current };
    if (Date.now() >= deadline) return { kind: 'running', invocation: current };
    await new Promise((r) => setTimeout(r, POLL_MS));
    const poll = await fetch(`${base}/v1/agents/${encodeURIComponent(project)}/invocations/${current.id}`, { headers });
    if (poll.status !== 200) throw new Error(`${poll.status} reading invocation ${current.id}`);
    current = (await poll.json()) as InvocationBody;
  }
}
