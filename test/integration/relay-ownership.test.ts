/**
 * Who owes an acknowledged event its relay, as recovery reads it (src/billing-intake/relay-ledger.ts): two ways an
 * API instance could acknowledge an event and then die with no peer ever relaying it, each played against the real
 * store, a real Temporal and a worker. The instance that dies is an EventIntake and an EventForwarder over the
 * suite's store whose relay cannot reach Temporal (it dies before relaying); the peer that recovers is the harness's
 * own relay, started as server.ts starts it (checkpoints every 2 s, recovery every 5 s), and nothing is backdated:
 * checkpoints go stale by the store's clock as they would.
 */
import assert from 'node:assert/strict';
import { EventIntake, InboxUnavailableError } from '../../src/billing-intake/accept-event';
import { EventForwarder } from '../../src/billing-intake/event-forwarder';
import { appScope } from '../../src/billing/subscriber-id';
import { createLogger } from '../../src/logging/logger';
import { COLLECTIONS } from '../../src/store/collections';
import { eventKey, WebhookEventRepository, type WebhookEventRecord } from '../../src/store/webhook-events';
import { randomSuffix } from '../support/config';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/harness';
import { DAY, providerEvent } from '../support/provider-events';
import { adminToken } from '../support/tokens';

const APP = `owner-${randomSuffix()}`;
const SCOPE = appScope(APP);

/** The inbox as a client sees it when the store's answer is lost: the insert (or update) commits, the call fails. */
class AnswerLostInbox extends WebhookEventRepository {
  override async accept(record: WebhookEventRecord): ReturnType<WebhookEventRepository['accept']> {
    await super.accept(record);
    throw new Error('connection reset: the answer to a committed write was lost');
  }
}

describe('relay ownership: an acknowledged event reaches its workflow though the instance that acknowledged it dies', function () {
  this.timeout(120_000);
  let h: Harness;
  const admin = adminToken();
  const logger = () => createLogger(h.config, 'test');

  before(async () => {
    h = await startHarness();
    await h.startWorker();
    const created = await h.request('POST', '/v1/apps', { token: admin, body: { slug: APP, name: 'Ownership' } });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => h?.close());

  /** An API instance over the suite's store that will die before relaying anything: its relay cannot reach Temporal. */
  function doomedInstance(inbox = h.repos.webhookEvents) {
    const forwarder = new EventForwarder({
      repos: { ...h.repos, webhookEvents: inbox },
      client: { get: () => Promise.reject(new Error('14 UNAVAILABLE: the instance died before relaying')) },
      taskQueue: h.config.temporal.taskQueue,
      logger: logger(),
    });
    return { forwarder, intake: new EventIntake(inbox, forwarder, h.repos.deadLetters) };
  }

  const purchase = (subscriber: string, price: number) => {
    const t = Date.now();
    return providerEvent('INITIAL_PURCHASE', subscriber, { at: t, purchasedAt: t, expiresAt: t + 30 * DAY, price });
  };
  const checkpointOf = (instanceId: string) => h.db.collection(COLLECTIONS.relayCheckpoints).findOne({ _id: instanceId as never });
  /** The customer once the event is applied: its workflow wrote the projection. */
  const applied = (subscriber: string, what: string) =>
    eventually(
      async () => (await h.request('GET', `/v1/billing/customers/${subscriber}?app=${APP}`, { token: admin })).body,
      (c) => c?.status === 'active',
      // A dead checkpoint is stale after 10 s and a peer looks every 5 s: applied within about 15 s of the death.
      { what, timeoutMs: 45_000, intervalMs: 250 },
    );

  it('a redelivery acknowledged by a second instance that dies is recovered, though the first delivery was stored by a live one', async () => {
    const event = purchase(`reaccepted-${randomSuffix()}`, 4.5);
    // The first delivery: stored, but the store's answer was lost, so it was answered 503 and nothing owes it.
    const first = doomedInstance(new AnswerLostInbox(h.db));
    await first.forwarder.checkpoint();
    await assert.rejects(first.intake.accept(SCOPE, event), InboxUnavailableError);
    const stored = await h.repos.webhookEvents.get(SCOPE, event.id);
    assert.equal(stored?.acceptedBy, first.forwarder.instanceId, 'the insert committed under the first instance');
    // The first instance lives on: its checkpoint passes the event, which it does not owe.
    await first.forwarder.checkpoint();
    assert.ok((await checkpointOf(first.forwarder.instanceId))!.safeUntil > stored!.receivedAt);

    // The provider redelivers to a second instance, which acknowledges it as a duplicate and dies before relaying.
    const second = doomedInstance();
    await second.forwarder.checkpoint();
    const accepted = await second.intake.accept(SCOPE, event);
    assert.equal(accepted.fresh, false, 'acknowledged as a redelivery');

    const customer = await applied(event.app_user_id!, 'the acknowledged redelivery to be applied after its instance died');
    assert.equal(customer.mrrContribution, 4.5, 'applied once');
    await first.forwarder.stop();
  });

  it('an event acknowledged by an instance a peer took for dead while it stalled is recovered once it dies', async () => {
    const event = purchase(`stalled-${randomSuffix()}`, 6.25);
    const stalled = doomedInstance();
    await stalled.forwarder.checkpoint();
    // It stalls (no checkpoint refresh) until the peer's recovery takes it for dead and retires its checkpoint.
    await eventually(
      () => checkpointOf(stalled.forwarder.instanceId),
      (c) => c === null,
      { what: "the peer to retire the stalled instance's checkpoint", timeoutMs: 45_000, intervalMs: 250 },
    );
    // It wakes, acknowledges an event, and dies before relaying it or writing its next checkpoint.
    const accepted = await stalled.intake.accept(SCOPE, event);
    assert.equal(accepted.fresh, true);
    assert.ok(await h.db.collection(COLLECTIONS.webhookEvents).findOne({ _id: eventKey(SCOPE, event.id) as never }));

    const customer = await applied(event.app_user_id!, 'the event the stalled instance acknowledged to be applied after it died');
    assert.equal(customer.mrrContribution, 6.25, 'applied once');
  });
});
