/**
 * Golden files: a result's markdown and its JSON (without the markdown), compared byte for byte with
 * test/golden/<skill>/<name>.{md,json}. After an intended change of wording, rewrite them with
 * UPDATE_GOLDEN=1 and review the diff.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SkillResult } from '../../../src/skills/result';
import { repoRoot } from './demo';

const GOLDEN_DIR = join(repoRoot(), 'test', 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

export function assertGolden(skill: string, name: string, result: SkillResult): void {
  const dir = join(GOLDEN_DIR, skill);
  const files = { md: result.markdown, json: `${JSON.stringify({ ...result, markdown: undefined }, null, 2)}\n` };
  for (const [ext, actual] of Object.entries(files)) {
    const path = join(dir, `${name}.${ext}`);
    if (update) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path, actual);
      continue;
    }
    const expected = readFileSync(path, 'utf8');
    assert.equal(actual, expected, `${path} differs; if the change is intended, run with UPDATE_GOLDEN=1 and review the diff`);
  }
}
