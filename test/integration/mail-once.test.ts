/** A billing-issue email goes out once: a retry never sends a second copy, and a failed send is retried. */
import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { createEmailActivities } from '../../src/activities/email';
import { createLogger } from '../../src/logger';
import { createMailer } from '../../src/mail';
import { COLLECTIONS } from '../../src/store/collections';
import { connectStore, type Store } from '../../src/store/mongo';
import { ProjectRepository } from '../../src/store/projects';
import { createRepositories } from '../../src/store/repositories';
import { testConfig } from '../support/config';
import { startSmtpServer } from '../support/smtp';

describe('billing-issue email: send once (real store, real SMTP server)', () => {
  let store: Store;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let config: ReturnType<typeof testConfig>;
  const activities = (smtpUrl: string) =>
    createEmailActivities({ repos: createRepositories(store.db), config, logger: createLogger(config, 'test'), temporal: null as unknown as Client, mailer: createMailer(smtpUrl, 'billing@service.test') });

  before(async () => {
    config = testConfig({ LOG_LEVEL: 'silent' });
    store = await connectStore(config.mongo.uri, `${config.mongo.dbName}_mail`, 'test');
    smtp = await startSmtpServer();
    await new ProjectRepository(store.db).upsertOrg('org-mail', { name: 'Mail Org', ownerEmail: 'owner@example.com' }, new Date());
  });
  after(async () => {
    await smtp?.close();
    await store?.db.dropDatabase().catch(() => undefined);
    await store?.close();
  });

  it('sends once, and a retried activity finds it sent', async () => {
    const send = activities(smtp.url).sendBillingIssueEmail;
    assert.equal(await send({ eventId: 'evt-once', subscriberId: 'org-mail' }), 'sent');
    assert.equal(await send({ eventId: 'evt-once', subscriberId: 'org-mail' }), 'already_sent');
    assert.equal(smtp.mails.filter((m) => m.raw.includes('evt-once')).length, 1);
  });

  it('an attempt that claimed the mail and never finished (a crash mid-send): the retry does not send again', async () => {
    const send = activities(smtp.url).sendBillingIssueEmail;
    await store.db.collection(COLLECTIONS.outbox).insertOne({
      _id: 'billing_issue:evt-doubt' as never, to: 'owner@example.com', subject: 's', text: 't', messageId: '<m@x>', status: 'sending', createdAt: new Date(), sentAt: null,
    });
    assert.equal(await send({ eventId: 'evt-doubt', subscriberId: 'org-mail' }), 'already_sent');
    assert.equal(smtp.mails.filter((m) => m.raw.includes('evt-doubt')).length, 0);
  });

  it('a send the relay refused gives the claim back, so the retry sends it, once', async () => {
    const refused = activities('smtp://127.0.0.1:1').sendBillingIssueEmail;
    await assert.rejects(refused({ eventId: 'evt-retry', subscriberId: 'org-mail' }));
    const record = await store.db.collection(COLLECTIONS.outbox).findOne({ _id: 'billing_issue:evt-retry' as never });
    assert.equal(record?.status, 'pending');
    assert.equal(await activities(smtp.url).sendBillingIssueEmail({ eventId: 'evt-retry', subscriberId: 'org-mail' }), 'sent');
    assert.equal(smtp.mails.filter((m) => m.raw.includes('evt-retry')).length, 1);
  });
});
