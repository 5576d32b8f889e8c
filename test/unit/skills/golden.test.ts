/** Golden outputs of the demo cases, compared byte for byte (see golden-files.ts). */
import { CASES, runCase } from './cases';
import { assertGolden } from './golden-files';

describe('skills: golden outputs of the demo project', () => {
  for (const c of CASES) {
    it(`${c.skill}/${c.name}`, () => assertGolden(c.skill, c.name, runCase(c)));
  }
});
