import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { COLLECTIONS } from '../../src/store/collections';
import { ensureIndexes } from '../../src/store/indexes';
import { startHarness, type Harness, cliEnv } from '../support/harness';
import { adminToken, projectToken } from '../support/tokens';
import { PROJECT, loadDemo } from './skills-helpers';

const docsPath = (project = PROJECT) => `/v1/projects/${project}/documents`;

const ticket = (key: string, over: Record<string, unknown> = {}) => ({
  kind: 'ticket',
  externalId: key,
  title: `Ticket ${key}`,
  body: 'Customers see a blank page on slow networks.',
  createdAt: '2026-01-0' + (Number(key.split('-')[1]) % 9 || 1) + 'T10:00:00Z',
  key,
  type: 'bug',
  status: 'Done',
  ...over,
});

describe('project documents over HTTP: the demo loader, bulk upsert, listing (real store)', () => {
  let h: Harness;
  const member = projectToken([PROJECT]);
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('seed-demo loads the demo org, project and documents, and a second run changes nothing', async () => {
    const first = await loadDemo(h);
    assert.deepEqual(first.orgs, ['acme']);
    assert.deepEqual(first.projects, [PROJECT]);
    assert.equal(first.rejected, 0);
    assert.equal(first.updated, 0);
    const count = await h.db.collection(COLLECTIONS.documents).countDocuments({ project: PROJECT });
    assert.equal(first.inserted, count);
    assert.ok(count > 100, `${count} demo documents`);

    const second = await loadDemo(h);
    assert.deepEqual({ ...second }, { ...first, inserted: 0, updated: count });
    assert.equal(await h.db.collection(COLLECTIONS.documents).countDocuments({ project: PROJECT }), count);
    const project = await h.request('GET', `/v1/projects/${PROJECT}`, { token: member });
    assert.equal(project.status, 200);
    assert.equal(project.body.org, 'acme');
  });

  it('the seed-demo command (as npm run dev runs it) finds demo/ and reports what it did', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(__dirname, '..', '..', 'src', 'cli.js'), 'seed-demo'], {
      env: cliEnv(h),
    });
    assert.match(stdout, /^org acme: updated\nproject acme-web: updated\n/);
    assert.match(stdout, /engineering\.json: \d+ documents \(0 new, \d+ updated\)/);
    assert.match(stdout, /demo loaded from .*demo: 1 org\(s\), 1 project\(s\), 0 documents new, \d+ updated, 0 rejected\n$/);
  });

  it('bulk upsert: a bad document is rejected alone, with its reasons; the others are kept', async () => {
    const res = await h.request('POST', docsPath(), {
      token: member,
      body: {
        documents: [ticket('QA-1'), ticket('QA-2', { fixversion: '1.0.0', status: 7 }), { kind: 'memo', externalId: 'm1' }, ticket('QA-3')],
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.inserted, 2);
    assert.equal(res.body.updated, 0);
    assert.deepEqual(
      res.body.rejected.map((r: { index: number }) => r.index),
      [1, 2],
    );
    assert.deepEqual(res.body.rejected[0].errors.map((e: { path: string }) => e.path).sort(), ['/fixversion', '/status']);
    assert.match(res.body.rejected[1].errors[0].message, /must be one of commit, pull_request/);

    const again = await h.request('POST', docsPath(), { token: adminToken(), body: { documents: [ticket('QA-1', { title: 'Renamed' })] } });
    assert.deepEqual(again.body, { inserted: 0, updated: 1, rejected: [] });
    const listed = await h.request('GET', `${docsPath()}?kind=ticket&q=renamed`, { token: member });
    assert.deepEqual(
      listed.body.documents.map((d: { externalId: string; title: string }) => [d.externalId, d.title]),
      [['QA-1', 'Renamed']],
    );
  });

  it('accepts what clients have: no createdAt, empty optional fields, a sales note without a customer; still names a misspelt field', async () => {
    const at = '2026-02-03T04:05:06.000Z';
    const res = await h.request('POST', docsPath(), {
      token: member,
      body: {
        documents: [
          {
            kind: 'commit',
            externalId: 'ingest-c1',
            title: 'fix: x',
            body: '',
            sha: 'abcdef1234',
            author: 'Ada',
            committedAt: at,
            version: '',
          },
          { kind: 'sales_note', externalId: 'ingest-sn1', title: 'Call with a prospect', body: 'Wants SSO.', industry: 'Retail', date: at },
          {
            kind: 'sales_note',
            externalId: 'ingest-sn2',
            title: 'Lost deal',
            body: '',
            industry: 'Retail',
            date: at,
            customer: '',
            outcome: '',
          },
          { kind: 'pull_request', externalId: 'ingest-pr1', title: 'Open PR', body: '', number: 9001, author: 'Ada', url: '' },
          { kind: 'ticket', externalId: 'ingest-t1', title: 'T', body: '', key: 'QA-77', type: 'bug', status: 'Done', fixVerison: '1.0.0' },
          {
            kind: 'win',
            externalId: 'ingest-w1',
            title: 'W',
            body: '',
            customer: 'C',
            industry: 'Retail',
            date: at,
            url: 'javascript:alert(document.cookie)',
          },
        ],
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.inserted, 4);
    assert.deepEqual(
      res.body.rejected.map((r: { index: number; errors: { path: string }[] }) => [r.index, r.errors.map((e) => e.path)]),
      [
        [4, ['/fixVerison']],
        [5, ['/url']],
      ],
    );
    const stored = await h.db
      .collection(COLLECTIONS.documents)
      .find({ project: PROJECT, externalId: { $in: ['ingest-c1', 'ingest-sn2', 'ingest-pr1'] } })
      .toArray();
    const byId = new Map(stored.map((d) => [d.externalId as string, d]));
    assert.equal(byId.get('ingest-c1')!.createdAt, at, "a commit's createdAt is its committedAt");
    assert.ok(!('version' in byId.get('ingest-c1')!), 'an empty optional field is not stored');
    assert.ok(!('customer' in byId.get('ingest-sn2')!) && !('outcome' in byId.get('ingest-sn2')!));
    assert.ok(
      Date.parse(byId.get('ingest-pr1')!.createdAt as string) > Date.now() - 60_000,
      "an unmerged pull request's createdAt is the upload time",
    );
  });

  it('lists by kind and text (case-insensitive), newest first, page by page with a cursor', async () => {
    const all = (await h.request('GET', `${docsPath()}?limit=200`, { token: member })).body.documents as {
      kind: string;
      externalId: string;
      createdAt: string;
      project?: string;
    }[];
    assert.equal(all.length, await h.db.collection(COLLECTIONS.documents).countDocuments({ project: PROJECT }));
    assert.equal(all[0].project, undefined, 'storage fields are not shown');
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].createdAt >= all[i].createdAt, 'newest first');

    const paged: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; body: { documents: { kind: string; externalId: string }[]; nextCursor: string | null } } =
        await h.request('GET', `${docsPath()}?limit=25${cursor ? `&cursor=${cursor}` : ''}`, { token: member });
      assert.equal(page.status, 200);
      paged.push(...page.body.documents.map((d) => `${d.kind}/${d.externalId}`));
      cursor = page.body.nextCursor;
      pages += 1;
    } while (cursor);
    assert.equal(pages, Math.ceil(all.length / 25));
    assert.deepEqual(
      paged,
      all.map((d) => `${d.kind}/${d.externalId}`),
      'pages join up: no gaps, no repeats (pull request "3" and ticket "3" alike)',
    );

    const checkout = (await h.request('GET', `${docsPath()}?q=CHECKOUT&kind=commit`, { token: member })).body.documents as {
      kind: string;
      title: string;
      body: string;
    }[];
    assert.ok(checkout.length >= 4);
    assert.ok(checkout.every((d) => d.kind === 'commit' && /checkout/i.test(d.title + d.body)));
    const runbooks = (await h.request('GET', `${docsPath()}?kind=runbook`, { token: member })).body.documents;
    assert.equal(runbooks.length, 4);
    // Every word must be there (any case, any order); punctuation separates words.
    const both = (await h.request('GET', `${docsPath()}?q=${encodeURIComponent('rollback, CHECKOUT')}`, { token: member })).body
      .documents as { title: string; body: string }[];
    assert.ok(both.length >= 1);
    assert.ok(both.every((d) => /checkout/i.test(d.title + d.body) && /rollback/i.test(d.title + d.body)));
    assert.deepEqual((await h.request('GET', `${docsPath()}?q=zzqx-no-such-word`, { token: member })).body.documents, []);
  });

  it('a document stored before search words existed is found once start-up has given it its words', async () => {
    await h.db.collection(COLLECTIONS.documents).insertOne({
      _id: `${PROJECT}/runbook/legacy-1` as never,
      project: PROJECT,
      kind: 'runbook',
      externalId: 'legacy-1',
      title: 'Legacy pager rotation',
      body: 'Who carries the pager',
      createdAt: '2020-01-01T00:00:00Z',
      updatedAt: new Date(),
      service: 'ops',
      steps: ['Hand over the pager'],
    });
    const find = async () =>
      (await h.request('GET', `${docsPath()}?q=pager`, { token: member })).body.documents as { externalId: string }[];
    assert.deepEqual(await find(), [], 'not found by a word before it has its words');
    // A store from before the migration: it has not run there yet.
    await h.db.collection(COLLECTIONS.migrations).deleteMany({});
    await ensureIndexes(h.db);
    assert.deepEqual(
      (await find()).map((d) => d.externalId),
      ['legacy-1'],
    );
  });

  it('403 without the project, 404 for an unknown project, 400 for a bad filter or body', async () => {
    assert.equal((await h.request('GET', docsPath(), { token: projectToken(['other']) })).status, 403);
    assert.equal(
      (await h.request('POST', docsPath(), { token: projectToken(['other']), body: { documents: [ticket('QA-9')] } })).status,
      403,
    );
    assert.equal((await h.request('GET', docsPath('ghost'), { token: adminToken() })).status, 404);
    assert.equal((await h.request('GET', `${docsPath()}?kind=memo`, { token: member })).status, 400);
    assert.equal((await h.request('GET', `${docsPath()}?cursor=nope`, { token: member })).status, 400);
    assert.equal((await h.request('POST', docsPath(), { token: member, body: { documents: [] } })).status, 400);
    assert.equal((await h.request('POST', docsPath(), { token: member, body: { docs: [ticket('QA-9')] } })).status, 400);
  });
});
