/**
 * Fields the store derives from a document when it saves it, so retrieval plans can range-query versions:
 * semver order is not string order, but `semverKey` order is. Store them next to the document's own fields.
 */
import type { ProjectDocument } from './documents';
import { isSemver, semverKey } from './semver';

export interface DerivedIndexFields {
  /** semverKey(version) of commits, pull requests and releases. */
  versionKey?: string;
  /** semverKey(fixVersion) of tickets. */
  fixVersionKey?: string;
}

export function indexFields(doc: ProjectDocument): DerivedIndexFields {
  switch (doc.kind) {
    case 'commit':
    case 'pull_request':
    case 'release':
      return doc.version && isSemver(doc.version) ? { versionKey: semverKey(doc.version) } : {};
    case 'ticket':
      return doc.fixVersion && isSemver(doc.fixVersion) ? { fixVersionKey: semverKey(doc.fixVersion) } : {};
    default:
      return {};
  }
}
