/** Shared steps of the skills integration suites: load the demo, invoke, poll, and check a result's shape. */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { temporal } from '@temporalio/proto';
import { defaultDemoDir, seedDemo } from '../../src/cli/seed-demo';
import { COLLECTIONS } from '../../src/store/collections';
import { eventually } from '../support/eventually';
import type { Harness, TestResponse } from '../support/harness';

export const PROJECT = 'acme-web';

/** The demo project, loaded into the suite's own database by the code `seed-demo` runs. */
export function loadDemo(h: Harness) {
  return seedDemo(h.repos, defaultDemoDir(), new Date(), () => undefined);
}

/** The demo project, and a copy of it under each of `others` (same org, same documents), for suites with several. */
export async function loadDemoWith(h: Harness, others: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'demo-projects-'));
  cpSync(defaultDemoDir(), dir, { recursive: true });
  for (const project of others) {
    cpSync(join(dir, PROJECT), join(dir, project), { recursive: true });
    writeFileSync(join(dir, project, 'project.json'), JSON.stringify({ project, name: project, org: 'acme' }));
  }
  return seedDemo(h.repos, dir, new Date(), () => undefined);
}

/** Starts the demo's SEV-3 incident RCA in `project` (202) and returns the invocation's id. */
export async function startIncidentRca(h: Harness, token: string, project: string): Promise<string> {
  const res = await h.request('POST', `/v1/agents/${project}/skills/incident_rca`, {
    token,
    body: { incidentId: 'INC-2025-022', severity: 'SEV-3' },
  });
  assert.equal(res.status, 202, res.text);
  return res.body.id as string;
}

export function invoke(
  h: Harness,
  token: string,
  skill: string,
  inputs: unknown,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  return h.request('POST', `/v1/agents/${PROJECT}/skills/${skill}`, { token, body: inputs, headers });
}

/** Polls the invocation until it reaches one of `statuses` (terminal ones by default). */
export async function settle(h: Harness, token: string, id: string, statuses = ['completed', 'failed', 'cancelled'], timeoutMs = 30_000) {
  const res = await eventually(
    () => h.request('GET', `/v1/agents/${PROJECT}/invocations/${id}`, { token }),
    (r) => r.status === 200 && statuses.includes(r.body.status),
    { timeoutMs, intervalMs: 100, what: `invocation ${id} to become ${statuses.join('|')}` },
  );
  return res.body;
}

/** The local activities a history recorded (their markers), in order: activity type names. */
export function localActivities(events: temporal.api.history.v1.IHistoryEvent[]): string[] {
  return events
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')
    .map((e) => {
      const data = e.markerRecordedEventAttributes!.details?.data?.payloads?.[0]?.data;
      const marker = JSON.parse(Buffer.from(data ?? []).toString('utf8')) as { activity_type?: string; activityType?: string };
      return marker.activity_type ?? marker.activityType ?? '(unreadable marker)';
    });
}

export const invocationCount = (h: Harness) => h.db.collection(COLLECTIONS.invocations).countDocuments();

interface Result {
  sections: { heading: string; markdown: string; citations: string[] }[];
  citations: { id: string; kind: string; title: string; url: string | null }[];
  generator: string;
  markdown: string;
  retrieval: { searched: Record<string, number>; used: number; excluded: { id: string; reason: string }[] };
}

/** api.md: every section citation resolves to result.citations; retrieval says what was searched, used, left out. */
export function assertResultShape(result: Result): void {
  assert.equal(typeof result.markdown, 'string');
  assert.ok(result.sections.length > 0, 'sections');
  const ids = new Set(result.citations.map((c) => c.id));
  assert.equal(ids.size, result.citations.length, 'citation ids are unique');
  for (const s of result.sections)
    for (const id of s.citations) assert.ok(ids.has(id), `${s.heading} cites ${id}, which is not in result.citations`);
  for (const c of result.citations) assert.ok(c.kind && c.title, `citation ${c.id} has kind and title`);
  assert.equal(typeof result.retrieval.used, 'number');
  assert.ok(Object.keys(result.retrieval.searched).length > 0, 'retrieval.searched');
  assert.ok(Array.isArray(result.retrieval.excluded), 'retrieval.excluded');
  assert.equal(result.retrieval.used, result.citations.length);
}

/** `expected` appear in `actual` in this order (other headings may sit between). */
export function assertInOrder(actual: string[], expected: string[]): void {
  let at = 0;
  for (const heading of actual) if (heading === expected[at]) at += 1;
  assert.equal(at, expected.length, `headings ${JSON.stringify(actual)} should contain ${JSON.stringify(expected)} in order`);
}
