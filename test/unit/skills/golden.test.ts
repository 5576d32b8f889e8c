/**
 * Golden outputs of the demo cases, compared byte for byte. After an intended change of wording, rewrite
 * them with UPDATE_GOLDEN=1 and review the diff.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CASES, runCase } from './cases';
import { repoRoot } from './demo';

const GOLDEN_DIR = join(repoRoot(), 'test', 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

describe('skills: golden outputs of the demo project', () => {
  for (const c of CASES) {
    it(`${c.skill}/${c.name}`, () => {
      const result = runCase(c);
      const dir = join(GOLDEN_DIR, c.skill);
      const files = { md: result.markdown, json: `${JSON.stringify({ ...result, markdown: undefined }, null, 2)}\n` };
      for (const [ext, actual] of Object.entries(files)) {
        const path = join(dir, `${c.name}.${ext}`);
        if (update) {
          mkdirSync(dir, { recursive: true });
          writeFileSync(path, actual);
          continue;
        }
        const expected = readFileSync(path, 'utf8');
        assert.equal(actual, expected, `${path} differs; if the change is intended, run with UPDATE_GOLDEN=1 and review the diff`);
      }
    });
  }
});
