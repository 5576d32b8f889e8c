/** Test helpers: the repository root, the demo project's documents, and a fixed clock. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/repo-root';
import type { ProjectDocument } from '../../../src/skills/documents';

export { repoRoot };

export const DEMO_DIR = join(repoRoot(), 'demo', 'acme-web');

/** Every document file of the demo project (each a POST /v1/projects/{project}/documents body). */
export function demoDocumentFiles(): string[] {
  return readdirSync(DEMO_DIR)
    .filter((f) => f.endsWith('.json') && f !== 'project.json')
    .sort()
    .map((f) => join(DEMO_DIR, f));
}

export function loadDemoDocuments(): ProjectDocument[] {
  return demoDocumentFiles().flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as { documents: ProjectDocument[] }).documents);
}

/** The demo's "today": after every document, so recency is meaningful and stable. */
export const DEMO_NOW = '2025-06-01T09:00:00.000Z';
