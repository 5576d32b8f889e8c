import type { ProjectDocument } from '../skills/documents';
import { DOCUMENT_KIND_SCHEMAS, OWN_TIME_FIELD, optionalTextFields } from '../skills/document-schema';
import { DOCUMENT_KINDS, type DocumentKind } from '../skills/types';
import { check, type FieldError } from '../contracts/validation';

const OPTIONAL_TEXT = new Map(DOCUMENT_KINDS.map((k) => [k, optionalTextFields(k)]));

/** The document as clients mean it: optional text fields sent as "" are absent. */
function withoutEmptyOptionals(doc: Record<string, unknown>, kind: DocumentKind): Record<string, unknown> {
  const empty = OPTIONAL_TEXT.get(kind)!.filter((f) => doc[f] === '');
  if (empty.length === 0) return doc;
  const copy = { ...doc };
  for (const f of empty) delete copy[f];
  return copy;
}

/**
 * Checks each document against its kind's schema: the bad ones are rejected alone, with reasons (a misspelt
 * field is named). Optional text fields sent as "" count as absent; a missing `createdAt` becomes the
 * document's own time (OWN_TIME_FIELD) or `now`, the upload time. The same (kind, externalId) twice: the later
 * one wins, as two requests would. Shared by the API and the CLI loaders.
 */
export function screenDocuments(
  documents: readonly unknown[],
  now: Date,
): { accepted: ProjectDocument[]; rejected: { index: number; errors: FieldError[] }[] } {
  const accepted: ProjectDocument[] = [];
  const rejected: { index: number; errors: FieldError[] }[] = [];
  const seen = new Map<string, number>();
  documents.forEach((raw, index) => {
    const kind = (raw as { kind?: unknown } | null)?.kind;
    if (
      typeof kind !== 'string' ||
      !(DOCUMENT_KINDS as readonly string[]).includes(kind) ||
      typeof raw !== 'object' ||
      Array.isArray(raw)
    ) {
      rejected.push({ index, errors: [{ path: '/kind', message: `must be one of ${DOCUMENT_KINDS.join(', ')}` }] });
      return;
    }
    const doc = withoutEmptyOptionals(raw as Record<string, unknown>, kind as DocumentKind);
    const errors = check(DOCUMENT_KIND_SCHEMAS[kind as DocumentKind], doc);
    if (errors.length > 0) {
      rejected.push({ index, errors });
      return;
    }
    const own = OWN_TIME_FIELD[kind as DocumentKind];
    const createdAt = doc.createdAt ?? (own && doc[own]) ?? now.toISOString();
    const typed = { ...doc, createdAt } as ProjectDocument;
    const key = `${typed.kind}\u0000${typed.externalId}`;
    const previous = seen.get(key);
    if (previous !== undefined) accepted[previous] = typed;
    else {
      seen.set(key, accepted.length);
      accepted.push(typed);
    }
  });
  return { accepted, rejected };
}
