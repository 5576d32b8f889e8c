/**
 * The regression corpus of model rewrites (test/fixtures/rewrite-corpus/cases.json): each case is a draft section,
 * a rewrite of it (seen from a real small model, or of a kind seen), and the verdict the checks must give. Every
 * known-bad rewrite is refused, naming its rule and a sentence; every known-good one is accepted. A case found
 * later (a bench run, a user's report) is added to the file with its verdict.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractCitationIds } from '../../../src/skills/markdown';
import { acceptSectionAnswer } from '../../../src/skills/run';
import { CASES, retrievedFor } from './cases';
import { repoRoot } from './demo';

interface CorpusCase {
  id: string;
  origin: string;
  skill: string;
  /** The demo case (test/unit/skills/cases.ts) whose retrieved documents are the section's sources. */
  case: string;
  heading: string;
  anchors: string[];
  draft: string;
  rewrite: string;
  expect: 'accepted' | 'refused';
  rule?: string;
}

const corpus = JSON.parse(readFileSync(join(repoRoot(), 'test', 'fixtures', 'rewrite-corpus', 'cases.json'), 'utf8')) as CorpusCase[];

describe('skills: the regression corpus of model rewrites', () => {
  it('holds known-bad and known-good rewrites of every skill', () => {
    for (const verdict of ['accepted', 'refused'])
      for (const skill of ['release_notes_composer', 'proposal_writer', 'incident_rca'])
        assert.ok(
          corpus.some((c) => c.expect === verdict && c.skill === skill),
          `no ${verdict} case for ${skill}`,
        );
  });

  for (const c of corpus) {
    it(`${c.expect === 'refused' ? 'refuses' : 'accepts'} ${c.id} (${c.skill}, “${c.heading}”; ${c.origin})`, () => {
      const demo = CASES.find((x) => x.name === c.case);
      assert.ok(demo, `unknown demo case ${c.case}`);
      const section = { heading: c.heading, citations: extractCitationIds(c.draft), markdownWithCitations: c.draft };
      const verdict = acceptSectionAnswer(JSON.stringify({ markdown: c.rewrite }), section, retrievedFor(demo), c.anchors);
      if (c.expect === 'accepted') {
        assert.ok(verdict.ok, verdict.ok ? '' : verdict.reason);
        assert.equal(verdict.unchanged, false);
        return;
      }
      assert.equal(verdict.ok, false, `accepted: ${c.rewrite}`);
      if (verdict.ok) return;
      assert.match(verdict.reason, new RegExp(`\\(rule: ${c.rule}; sentence: “[^”]+”\\)`), verdict.reason);
    });
  }
});
