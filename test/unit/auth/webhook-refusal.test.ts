import assert from 'node:assert/strict';
import { appRefusal, operatorRefusal } from '../../../src/auth/webhook-refusal';
import { digestOf, graceAfterRotation } from '../../../src/auth/webhook-authorization';

const hex = (v: string) => digestOf(v).toString('hex');
const now = new Date('2026-11-20T10:00:00Z');
const HOUR = 3_600_000;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJl';

describe('webhook refusal reasons (for the event log; the caller always gets the same 401)', () => {
  // Rotated 25 hours ago with 24 hours of grace: `old` is still listed, its grace over; `recent` is in grace.
  const app = {
    authorizationDigest: hex('whsec_current'),
    graceDigests: [
      ...graceAfterRotation({ authorizationDigest: hex('whsec_old') }, new Date(now.getTime() - 25 * HOUR), 24 * HOUR, false),
      { digest: hex('whsec_recent'), validUntil: new Date(now.getTime() + HOUR) },
    ],
  };

  it('names each way an app value goes wrong', () => {
    assert.equal(appRefusal(null, 'whsec_current', now), 'unknown_app');
    assert.equal(appRefusal(app, '', now), 'missing_authorization');
    assert.equal(appRefusal(app, 'Bearer whsec_current', now), 'bearer_prefix');
    assert.equal(appRefusal(app, 'bearer   whsec_recent', now), 'bearer_prefix', 'a value in grace, any case, any spacing');
    assert.equal(appRefusal(app, `Bearer ${JWT}`, now), 'token_not_webhook_value');
    assert.equal(appRefusal(app, JWT, now), 'token_not_webhook_value');
    assert.equal(appRefusal(app, 'whsec_old', now), 'rotated_out');
    assert.equal(appRefusal(app, 'whsec_typo', now), 'authorization_mismatch');
    assert.equal(appRefusal(app, 'Bearer whsec_typo', now), 'authorization_mismatch');
  });

  it("names each way the operator's value goes wrong", () => {
    const digest = hex('op-value');
    assert.equal(operatorRefusal(null, 'op-value'), 'operator_not_configured');
    assert.equal(operatorRefusal(digest, ''), 'missing_authorization');
    assert.equal(operatorRefusal(digest, 'Bearer op-value'), 'bearer_prefix');
    assert.equal(operatorRefusal(digest, `Bearer ${JWT}`), 'token_not_webhook_value');
    assert.equal(operatorRefusal(digest, 'op-valu'), 'authorization_mismatch');
  });
});
