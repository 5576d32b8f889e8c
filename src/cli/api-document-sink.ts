import { MAX_DOCUMENTS_PER_REQUEST } from '../contracts/bodies';
import type { DocumentSink } from '../git/import';
import type { ProjectDocument } from '../skills/documents';
import { callApi, type ApiSettings } from './api-client';

/** Under the API's 64 KiB body limit, with room for the envelope. */
const MAX_BODY_BYTES = 60 * 1024;

/**
 * `import-git --api`: documents go to `POST /v1/projects/{project}/documents` in requests that fit the API's
 * body limit and document count, instead of to the store. A document the API rejects stops the import (the
 * importer screens documents the same way first, so this means the two disagree).
 */
export function apiDocumentSink(api: ApiSettings): DocumentSink {
  return {
    async upsertMany(project: string, docs: ProjectDocument[]) {
      let inserted = 0;
      let updated = 0;
      let batch: ProjectDocument[] = [];
      let bytes = 0;
      const send = async () => {
        if (batch.length === 0) return;
        const res = await callApi<{ inserted: number; updated: number; rejected: unknown[] }>(
          api,
          'POST',
          `/v1/projects/${encodeURIComponent(project)}/documents`,
          { documents: batch },
        );
        if (res.rejected.length > 0)
          throw new Error(`the API rejected ${res.rejected.length} documents: ${JSON.stringify(res.rejected.slice(0, 3))}`);
        inserted += res.inserted;
        updated += res.updated;
        batch = [];
        bytes = 0;
      };
      for (const doc of docs) {
        const size = Buffer.byteLength(JSON.stringify(doc)) + 1;
        if (batch.length > 0 && (bytes + size > MAX_BODY_BYTES || batch.length >= MAX_DOCUMENTS_PER_REQUEST)) await send();
        batch.push(doc);
        bytes += size;
      }
      await send();
      return { inserted, updated };
    },
  };
}
