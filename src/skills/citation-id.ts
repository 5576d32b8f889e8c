import type { ProjectDocument } from './documents';

/**
 * The stable id a result cites a document by. It uses the identifier people already say out loud (a short
 * sha, "#123", "WEB-7", a version, an incident id) rather than the upsert key, so it reads well in prose.
 */
export function citationId(doc: ProjectDocument): string {
  switch (doc.kind) {
    case 'commit':
      return `commit:${doc.sha.slice(0, 7)}`;
    case 'pull_request':
      return `pr:${doc.number}`;
    case 'ticket':
      return `ticket:${doc.key}`;
    case 'release':
      return `release:${doc.version}`;
    case 'incident':
      return `incident:${doc.incidentId}`;
    case 'error_issue':
      return `error_issue:${doc.issueId}`;
    case 'win':
    case 'case_study':
    case 'sales_note':
    case 'runbook':
      return `${doc.kind}:${doc.externalId}`;
  }
}

/** Prefixes of citation ids, for recognising citation markers in prose. */
export const CITATION_PREFIXES = [
  'commit',
  'pr',
  'ticket',
  'release',
  'win',
  'case_study',
  'sales_note',
  'incident',
  'error_issue',
  'runbook',
] as const;
