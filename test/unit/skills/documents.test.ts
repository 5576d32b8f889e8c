import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { citationId } from '../../../src/skills/citation-id';
import { DOCUMENT_KIND_SCHEMAS, DOCUMENT_SCHEMA, type ProjectDocument } from '../../../src/skills/documents';
import { MAX_QUERY_TERMS, MAX_TERMS_PER_DOCUMENT, queryTerms, searchTermsOf } from '../../../src/skills/search-terms';
import { indexFields } from '../../../src/skills/index-fields';
import { DOCUMENT_KINDS } from '../../../src/skills/types';
import { DEMO_DIR, demoDocumentFiles, loadDemoDocuments, repoRoot } from './demo';

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(DOCUMENT_SCHEMA);

const commit: ProjectDocument = {
  kind: 'commit',
  externalId: 'ab12cd34ef',
  title: 'fix: x',
  body: '',
  createdAt: '2025-01-01T00:00:00Z',
  sha: 'ab12cd34ef56',
  author: 'A',
  committedAt: '2025-01-01T00:00:00Z',
  version: '1.2.0',
};

describe('skills: documents', () => {
  it('compiles in strict mode and accepts every demo document', () => {
    for (const doc of loadDemoDocuments()) assert.ok(validate(doc), `${doc.kind} ${doc.externalId}: ${JSON.stringify(validate.errors)}`);
  });

  it('reports a bad field against that field of that kind only', () => {
    assert.equal(validate({ ...commit, version: 'v1.2', committedAt: 'yesterday', fixversion: '1.0.0' }), false);
    const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
    assert.deepEqual(errors.map((e) => `${e.instancePath} ${e.keyword}`).sort(), [
      ' additionalProperties',
      '/committedAt format',
      '/version pattern',
    ]);
  });

  it('rejects an unknown kind and missing required fields', () => {
    assert.equal(validate({ ...commit, kind: 'wiki' }), false);
    const noSha: Record<string, unknown> = { ...commit };
    delete noSha.sha;
    assert.equal(ajv.validate(DOCUMENT_KIND_SCHEMAS.commit, noSha), false);
    assert.ok(ajv.errors?.some((e) => e.keyword === 'required' && (e.params as { missingProperty: string }).missingProperty === 'sha'));
  });

  it('has a schema for every kind', () => {
    assert.deepEqual(Object.keys(DOCUMENT_KIND_SCHEMAS).sort(), [...DOCUMENT_KINDS].sort());
  });

  it('gives stable citation ids', () => {
    const ids = loadDemoDocuments().map(citationId);
    assert.equal(new Set(ids).size, ids.length, 'citation ids are unique in the demo project');
    assert.equal(citationId(commit), 'commit:ab12cd3');
    for (const id of [
      'pr:50',
      'ticket:WEB-37',
      'release:2.0.0',
      'win:win-1',
      'case_study:cs-1',
      'sales_note:sn-2',
      'incident:INC-2025-014',
      'error_issue:SENTRY-88',
      'runbook:rb-checkout-rollback',
    ]) {
      assert.ok(ids.includes(id), id);
    }
  });

  it('derives sortable version keys and search words for the store', () => {
    const { searchTerms: _terms, ...versions } = indexFields(commit);
    assert.deepEqual(versions, { versionKey: '000001.000002.000000~' });
    assert.deepEqual(
      indexFields({
        kind: 'ticket',
        externalId: 'W-1',
        title: 'Checkout-flow: Café timeout',
        body: 'a 3s timeout',
        createdAt: '2025-01-01T00:00:00Z',
        key: 'W-1',
        type: 'bug',
        status: 'Done',
        fixVersion: '1.10.0',
      }),
      {
        searchTerms: ['checkout', 'flow', 'café', 'timeout', '3s'],
        fixVersionKey: '000001.000010.000000~',
      },
    );
  });

  it('bounds the search words of a document and of a query, and finds words in linear time', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' ');
    assert.equal(searchTermsOf({ title: '', body: many }).length, MAX_TERMS_PER_DOCUMENT);
    assert.deepEqual(queryTerms('  CHECKOUT, a  time-out?? '), ['checkout', 'time', 'out']);
    assert.equal(queryTerms(Array.from({ length: 20 }, (_, i) => `q${i}`).join(' ')).length, MAX_QUERY_TERMS);
    const hostile = `${'a'.repeat(200_000)}!`.repeat(3);
    const started = Date.now();
    assert.equal(searchTermsOf({ title: hostile, body: hostile }).length, 1);
    assert.ok(Date.now() - started < 1000);
  });

  it('ships a demo project loadable through the API (bodies under 64 KiB, project and org records)', () => {
    for (const file of demoDocumentFiles()) {
      assert.ok(statSync(file).size < 64 * 1024, `${file} is over the API body limit`);
      assert.ok(Array.isArray(JSON.parse(readFileSync(file, 'utf8')).documents));
    }
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(DEMO_DIR, 'project.json'), 'utf8'))).sort(), ['name', 'org', 'project']);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(repoRoot(), 'demo', 'orgs', 'acme.json'), 'utf8'))).sort(), [
      'name',
      'ownerEmail',
    ]);
  });

  it('covers what the skills need: releases, all kinds, a breaking change, bot bumps, three industries', () => {
    const docs = loadDemoDocuments();
    const kinds = new Set(docs.map((d) => d.kind));
    for (const k of DOCUMENT_KINDS) assert.ok(kinds.has(k), k);
    assert.ok(docs.filter((d) => d.kind === 'release').length >= 4);
    assert.ok(docs.some((d) => d.kind === 'commit' && /^\w+(\(.*\))?!:/.test(d.title)));
    assert.ok(docs.some((d) => d.kind === 'commit' && d.body.includes('BREAKING CHANGE:')));
    assert.ok(docs.some((d) => d.kind === 'commit' && d.author.endsWith('[bot]')));
    const industries = new Set(
      docs.flatMap((d) => (d.kind === 'win' || d.kind === 'case_study' || d.kind === 'sales_note' ? [d.industry] : [])),
    );
    assert.ok(industries.size >= 3);
    assert.equal(docs.filter((d) => d.kind === 'incident').length, 2);
  });
});
