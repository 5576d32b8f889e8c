/**
 * A billing-issue email goes out at least once and, short of a crash between the send and its record, once: a retry
 * never sends a second copy, a failed send is retried, and a claim left by a crashed attempt is taken again after
 * its lease.
 */
import assert from 'node:assert/strict';
import type { ApplicationFailure } from '@temporalio/common';
import { createEmailActivities } from '../../src/activities/email';
import { MAIL_CLAIM, sendOnce } from '../../src/activities/send-once';
import { createLogger } from '../../src/logging/logger';
import { systemClock } from '../../src/config/clock';
import { createMailer } from '../../src/mail/mailer';
import { COLLECTIONS } from '../../src/store/collections';
import { connectStore, type Store } from '../../src/store/mongo';
import { MailOutbox } from '../../src/store/mail-outbox';
import { ProjectRepository } from '../../src/store/projects';
import { createRepositories } from '../../src/store/repositories';
import { testConfig } from '../support/config';
import { startSmtpServer } from '../support/smtp';
import { eventually } from '../support/eventually';

describe('billing-issue email: send once (real store, real SMTP server)', () => {
  let store: Store;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let config: ReturnType<typeof testConfig>;
  const activities = (smtpUrl: string) =>
    createEmailActivities({
      repos: createRepositories(store.db),
      logger: createLogger(config, 'test'),
      mailer: createMailer(smtpUrl, 'billing@service.test'),
      now: systemClock,
    });

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

  it('a claim left by a crashed attempt: held within its lease (the retry waits for it), sent once after it, with the same Message-ID', async () => {
    const outbox = store.db.collection(COLLECTIONS.outbox);
    const key = 'billing_issue:evt-crashed';
    let clock = new Date();
    const at = (ms: number) => (clock = new Date(Date.now() + ms));
    const send = () =>
      createEmailActivities({
        repos: createRepositories(store.db),
        logger: createLogger(config, 'test'),
        mailer: createMailer(smtp.url, 'billing@service.test'),
        now: () => clock,
      }).sendBillingIssueEmail({ eventId: 'evt-crashed', subscriberId: 'org-mail' });
    // As if an attempt had claimed the mail and died before it sent or recorded the send.
    await outbox.insertOne({
      _id: key as never,
      to: 'owner@example.com',
      subject: 's',
      text: 't',
      messageId: '<evt-crashed@skills-billing.local>',
      status: 'sending',
      claimedAt: clock,
      attempts: 1,
      createdAt: clock,
      sentAt: null,
    });
    at(MAIL_CLAIM.leaseMs / 2);
    await assert.rejects(send(), (err: ApplicationFailure) => {
      assert.equal(err.type, 'MailClaimHeld');
      // Retried when the lease is over, not before and not much after.
      const delay = Number(err.nextRetryDelay);
      assert.ok(delay > MAIL_CLAIM.leaseMs / 2 && delay <= MAIL_CLAIM.leaseMs / 2 + 2000, `retry delay ${delay} ms`);
      return true;
    });
    assert.equal(smtp.mails.filter((m) => m.raw.includes('evt-crashed')).length, 0);
    at(MAIL_CLAIM.leaseMs + 1000);
    assert.equal(await send(), 'sent');
    assert.equal(await send(), 'already_sent');
    const copies = smtp.mails.filter((m) => m.raw.includes('evt-crashed'));
    assert.equal(copies.length, 1);
    assert.match(copies[0]!.raw, /Message-ID: <evt-crashed@skills-billing\.local>/i);
    const record = await outbox.findOne({ _id: key as never });
    assert.equal(record?.status, 'sent');
    assert.equal(record?.attempts, 2);
  });

  it('a send slower than the lease keeps its claim by renewing it: a retry meanwhile waits, and the mail goes out once', async () => {
    const outbox = new MailOutbox(store.db);
    const logger = createLogger(config, 'test');
    const claim = { leaseMs: 400, renewEveryMs: 100 };
    const mail = await outbox.record(
      'billing_issue:evt-slow',
      { to: 'owner@example.com', subject: 's', text: 't', messageId: '<slow@x>' },
      new Date(),
    );
    let sends = 0;
    let finish = () => undefined as void;
    const slowRelay = { send: () => (sends++, new Promise<void>((resolve) => (finish = resolve))), close: () => undefined };
    const first = sendOnce({ outbox, mailer: slowRelay, logger, now: () => new Date(), claim }, mail);
    // Three leases' worth of renewals while the relay holds the send.
    const start = Date.now();
    await eventually(
      () => outbox.list(),
      (rows) => (rows.find((r) => r._id === mail._id)?.claimedAt?.getTime() ?? 0) > start + 3 * claim.leaseMs,
      { what: 'the claim to be renewed past three leases', intervalMs: 20 },
    );
    const retry = { send: () => (sends++, Promise.resolve()), close: () => undefined };
    await assert.rejects(sendOnce({ outbox, mailer: retry, logger, now: () => new Date(), claim }, mail), (err: ApplicationFailure) => {
      assert.equal(err.type, 'MailClaimHeld');
      return true;
    });
    finish();
    assert.equal(await first, 'sent');
    assert.equal(
      await sendOnce(
        { outbox, mailer: retry, logger, now: () => new Date(), claim },
        (await outbox.list()).find((r) => r._id === mail._id)!,
      ),
      'already_sent',
    );
    assert.equal(sends, 1);
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
