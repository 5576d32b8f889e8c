import { renderDocument } from '../markdown';
import type { Skill } from '../skill';
import { releaseNotesComposer, type ReleaseNotesInputs } from './definition';
import { draftReleaseNotes } from './draft';
import { releaseNotesPlan } from './plan';
import { releaseNotesInstructions } from './prompt';
import { releaseNotesRules } from './rules';
import { selectReleaseNotes } from './select';

export const releaseNotesSkill: Skill<ReleaseNotesInputs> = {
  ...releaseNotesComposer,
  rules: releaseNotesRules,
  plan: releaseNotesPlan,
  draft: (inputs, documents, searchedKinds) => draftReleaseNotes(inputs, selectReleaseNotes(inputs, documents), documents, searchedKinds),
  render: () => renderDocument,
  instructions: releaseNotesInstructions,
  // The people credited and the compare link: nothing a rewrite could say better.
  fixedSections: ['Contributors', 'Full changelog'],
};
