/** Test helpers: the repository root, the demo project's documents, and a fixed clock. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ProjectDocument } from '../../../src/skills/documents';

/**
 * The folder holding package.json and demo/: found upwards from this file (compiled tests run from
 * dist/test/...), else upwards from the working directory (tests compiled outside the repository).
 */
export function repoRoot(): string {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'demo'))) return dir;
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(`no folder with package.json and demo/ above ${__dirname} or ${process.cwd()}`);
}

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
