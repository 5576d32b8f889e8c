/** Rules every result obeys, checked on every demo case. */
import assert from 'node:assert/strict';
import { CUSTOMER_SUMMARY } from '../../../src/skills/incident/depth';
import { checkResult } from '../../../src/skills/check-result';
import { citationId } from '../../../src/skills/citation-id';
import { extractCitationIds } from '../../../src/skills/markdown';
import { CASES, retrievedFor, runCase } from './cases';

/** A fixed permutation, so the "any order" test is itself deterministic. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  let seed = 42;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('skills: invariants on every demo case', () => {
  for (const c of CASES) {
    describe(`${c.skill}/${c.name}`, () => {
      const docs = retrievedFor(c);
      const retrievedIds = new Set(docs.map(citationId));
      const result = runCase(c, docs);

      it('passes checkResult against its own headings', () => {
        assert.deepEqual(
          checkResult(
            result,
            retrievedIds,
            result.sections.map((s) => s.heading),
          ),
          [],
        );
      });

      it('cites only retrieved documents, and every cited id resolves', () => {
        const listed = new Set(result.citations.map((x) => x.id));
        for (const s of result.sections) for (const id of s.citations) assert.ok(listed.has(id), `${id} not in citations`);
        for (const id of listed) assert.ok(retrievedIds.has(id), `${id} was not retrieved`);
      });

      it('cites every used document, and accounts for every retrieved one', () => {
        const excluded = new Set(result.retrieval.excluded.map((e) => e.id));
        assert.equal(result.retrieval.used, result.citations.length);
        for (const id of retrievedIds)
          assert.ok(excluded.has(id) !== result.citations.some((x) => x.id === id), `${id} must be either used or excluded`);
        const searched = Object.values(result.retrieval.searched).reduce((a, b) => a + (b ?? 0), 0);
        assert.equal(searched, result.retrieval.used + result.retrieval.excluded.length);
      });

      it('gives every excluded document a reason', () => {
        for (const e of result.retrieval.excluded) assert.ok(e.reason.trim().length > 0, `${e.id} has no reason`);
      });

      it('lists in each section exactly the ids its prose cites; a customer-facing summary cites nothing inline and names its source', () => {
        for (const s of result.sections) {
          if (s.heading !== CUSTOMER_SUMMARY) assert.deepEqual(s.citations, extractCitationIds(s.markdownWithCitations), s.heading);
          else {
            assert.deepEqual(extractCitationIds(s.markdownWithCitations), [], 'no marker in a summary for customers');
            assert.ok(
              s.citations.length > 0 && s.citations.every((id) => id.startsWith('incident:')),
              'its source, for the reader of the result',
            );
          }
        }
      });

      it('publishes without markers: links where a source has an address, footnotes where it has none', () => {
        assert.deepEqual(extractCitationIds(result.markdown), []);
        for (const s of result.sections) assert.deepEqual(extractCitationIds(s.markdown), [], s.heading);
      });

      it('is deterministic: same inputs, and the same documents in any order or repeated, give identical output', () => {
        assert.deepEqual(runCase(c, docs), result);
        assert.equal(JSON.stringify(runCase(c, [...shuffled(docs), ...docs.slice(0, 3)])), JSON.stringify(result));
      });

      it('renders every section in the markdown, in order', () => {
        let from = 0;
        for (const s of result.sections) {
          const at = result.markdown.indexOf(s.markdown, from);
          assert.ok(at >= from, `section ${s.heading} missing or out of order`);
          from = at + s.markdown.length;
        }
      });
    });
  }
});
