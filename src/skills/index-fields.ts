/**
 * Fields the store derives from a document when it saves it, so retrieval plans can range-query versions
 * (semver order is not string order, but `semverKey` order is) and the listing's search reads an index. Store
 * them next to the document's own fields.
 */
import type { ProjectDocument } from './documents';
import { searchTermsOf } from './search-terms';
import { isSemver, semverKey } from './semver';

export interface DerivedIndexFields {
  /** The words the listing's search finds the document by (search-terms.ts). */
  searchTerms: string[];
  /** semverKey(version) of commits, pull requests and releases. */
  versionKey?: string;
  /** semverKey(fixVersion) of tickets. */
  fixVersionKey?: string;
}

export function indexFields(doc: ProjectDocument): DerivedIndexFields {
  return { searchTerms: searchTermsOf(doc as { title?: unknown; body?: unknown }), ...versionFields(doc) };
}

function versionFields(doc: ProjectDocument): Omit<DerivedIndexFields, 'searchTerms'> {
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
