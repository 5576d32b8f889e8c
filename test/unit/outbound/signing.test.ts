import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { generateEndpointSecret, messageIdFor, signatureHeader } from '../../../src/outbound/signing';

describe('outbound webhooks: signing (verified with the standardwebhooks package)', () => {
  it('produces signatures a Standard Webhooks receiver accepts, with either secret during an overlap', () => {
    const current = generateEndpointSecret();
    const previous = generateEndpointSecret();
    assert.match(current, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = messageIdFor('ep_1', 'evt_1');
    const ts = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 'RENEWAL', id: 'evt_1' });
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': signatureHeader([current, previous], id, ts, body),
    };
    assert.deepEqual(new Webhook(current).verify(body, headers), JSON.parse(body));
    assert.deepEqual(new Webhook(previous).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(generateEndpointSecret()).verify(body, headers));
    assert.throws(() => new Webhook(current).verify(body + ' ', headers));
  });

  it('derives the webhook-id from endpoint and event only', () => {
    assert.equal(messageIdFor('ep_1', 'evt_1'), messageIdFor('ep_1', 'evt_1'));
    assert.notEqual(messageIdFor('ep_1', 'evt_1'), messageIdFor('ep_2', 'evt_1'));
    assert.match(messageIdFor('ep_1', 'evt_1'), /^msg_[A-Za-z0-9_-]{32}$/);
  });
});
