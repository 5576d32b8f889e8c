/**
 * One skill invocation through the API as a client makes it: POST, then GET its record until it is terminal
 * with its final version (with a model, the rewrite that follows the deterministic draft).
 * Polled rather than `Prefer: wait`, because with a model on a CPU an invocation outlasts any wait the API
 * grants. At the deadline the invocation is cancelled, so a slow model cannot hold the rest of the run.
 */
import type { Agent } from 'node:http';
import { send } from './http-client';
import type { SkillCase } from './demo';
import { nowMs, sleep } from './stats';

export interface InvocationRecordView {
  id: string;
  status: string;
  workflowId?: string;
  result?: unknown;
  error?: unknown;
  /** With a model: version 1 is the deterministic draft (`final: false`), the model's rewrite follows. */
  revision?: { number: number; final: boolean } | null;
  links: { self: string };
}

export interface Invoked {
  /** completed / failed / cancelled as the service recorded it; `deadline` when this side gave up and cancelled. */
  status: 'completed' | 'failed' | 'cancelled' | 'deadline';
  /** POST sent → terminal record with its final version seen (to the poll interval). */
  ms: number;
  /** POST sent → first completed version seen (the deterministic draft, with a model); null when none was. */
  firstMs: number | null;
  record: InvocationRecordView;
}

export async function invokeAndWait(
  agent: Agent,
  target: { baseUrl: string; project: string; token: string },
  c: SkillCase,
  opts: { deadline: number; pollMs: number },
): Promise<Invoked> {
  const auth = { Authorization: `Bearer ${target.token}` };
  const t = nowMs();
  const res = await send(agent, `${target.baseUrl}/v1/agents/${target.project}/skills/${c.skill}`, 'POST', JSON.stringify(c.inputs), auth);
  if (res.status !== 202 && res.status !== 200) throw new Error(`invoking ${c.skill} answered ${res.status}: ${res.text.slice(0, 300)}`);
  let record = JSON.parse(res.text) as InvocationRecordView;
  let firstMs: number | null = null;
  for (;;) {
    if (record.status === 'completed') firstMs ??= nowMs() - t;
    const final = record.revision?.final !== false;
    if ((record.status === 'completed' && final) || record.status === 'failed' || record.status === 'cancelled') {
      return { status: record.status, ms: nowMs() - t, firstMs, record };
    }
    if (Date.now() > opts.deadline) {
      const ms = nowMs() - t;
      await send(agent, `${target.baseUrl}${record.links.self}/cancel`, 'POST', '{}', auth).catch(() => undefined);
      return { status: 'deadline', ms, firstMs, record };
    }
    await sleep(opts.pollMs);
    const got = await send(agent, `${target.baseUrl}${record.links.self}`, 'GET', undefined, auth);
    if (got.status !== 200) throw new Error(`GET ${record.links.self} answered ${got.status}: ${got.text.slice(0, 300)}`);
    record = JSON.parse(got.text) as InvocationRecordView;
  }
}
