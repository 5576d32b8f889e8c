/**
 * Each drafter's headings are its catalog entry's `output.sections`, in order, on every demo case. Two
 * documented exceptions: a proposal email or deck has a layout of its own (proposal/email.ts, deck.ts), and
 * a SEV-1 RCA adds CUSTOMER_SUMMARY after the catalog's sections (incident/depth.ts).
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
      assert.deepEqual(
        runCase(c).sections.map((s) => s.heading),
        [...expected],
      );
    });
  }

  it('every skill is covered by at least one case checked against its sections', () => {
    const checked = new Set(CASES.filter((c) => expectedHeadings(c) !== undefined).map((c) => c.skill));
    assert.deepEqual([...checked].sort(), ['incident_rca', 'proposal_writer', 'release_notes_composer']);
  });
});
