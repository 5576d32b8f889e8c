/**
 * Each drafter's headings are its catalog entry's `output.sections`, in order, on every demo case. Documented
 * exceptions: a proposal email or deck has a layout of its own (proposal/email.ts, deck.ts), a SEV-1 RCA adds
 * CUSTOMER_SUMMARY after the catalog's sections (incident/depth.ts), and release notes leave out the sections
 * they have nothing for (release-notes/draft.ts): theirs are the catalog's in its order, the changelog link always.
 */
import assert from 'node:assert/strict';
import { getSkill } from '../../../src/skills/catalog';
import { CUSTOMER_SUMMARY } from '../../../src/skills/incident/depth';
import { CASES, runCase, type DemoCase } from './cases';

function expectedHeadings(c: DemoCase): readonly string[] | undefined {
  const sections = getSkill(c.skill).output.sections;
  if (c.skill === 'proposal_writer') {
    const { format } = c.inputs as DemoCase<'proposal_writer'>['inputs'];
    return format === 'one-pager' ? sections : undefined;
  }
  if (c.skill === 'incident_rca' && (c.inputs as DemoCase<'incident_rca'>['inputs']).severity === 'SEV-1')
    return [...sections, CUSTOMER_SUMMARY];
  return sections;
}

describe('skills: drafted headings are the catalog output sections', () => {
  for (const c of CASES) {
    const expected = expectedHeadings(c);
    if (expected === undefined) continue;
    it(`${c.skill}/${c.name}`, () => {
      const headings = runCase(c).sections.map((s) => s.heading);
      if (c.skill !== 'release_notes_composer') return assert.deepEqual(headings, [...expected]);
      assert.deepEqual(
        headings,
        expected.filter((h) => headings.includes(h)),
        'in the catalog order, nothing else',
      );
      assert.equal(headings[headings.length - 1], 'Full changelog');
    });
  }

  it('every skill is covered by at least one case checked against its sections', () => {
    const checked = new Set(CASES.filter((c) => expectedHeadings(c) !== undefined).map((c) => c.skill));
    assert.deepEqual([...checked].sort(), ['incident_rca', 'proposal_writer', 'release_notes_composer']);
  });
});
