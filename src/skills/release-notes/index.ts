import type { ReleaseNotesInputs } from '../inputs';
import { renderDocument } from '../markdown';
import type { SkillModule } from '../skill-module';
import { draftReleaseNotes } from './draft';
import { releaseNotesPlan } from './plan';
import { releaseNotesInstructions } from './prompt';
import { selectReleaseNotes } from './select';

export const releaseNotesModule: SkillModule<ReleaseNotesInputs> = {
  plan: releaseNotesPlan,
  draft: (inputs, documents, searchedKinds) => draftReleaseNotes(inputs, selectReleaseNotes(inputs, documents), documents, searchedKinds),
  render: () => renderDocument,
  instructions: releaseNotesInstructions,
};
