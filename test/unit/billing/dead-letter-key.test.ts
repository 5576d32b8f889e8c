import assert from 'node:assert/strict';
import { deadLetterKey } from '../../../src/billing/dead-letter-key';
import { deadLetterId } from '../../../src/store/dead-letters';

/**
 * The formats below are the ones records were parked under before the keys had one function (written out by hand
 * here, not derived from it): a record parked then must be found, and parked into again, by the same key now.
 */
describe('dead-letter keys', () => {
  it('keeps the five formats byte for byte', () => {
    assert.equal(
      deadLetterKey({ stage: 'intake', scope: 'app:acme', eventId: 'evt_1', digest: '0123456789abcdef0123456789abcdef' }),
      'intake:app:acme|evt_1:0123456789abcdef0123456789abcdef',
    );
    assert.equal(deadLetterKey({ stage: 'relay', scope: 'app:acme', eventId: 'evt_1' }), 'app:acme|relay|evt_1');
    assert.equal(deadLetterKey({ stage: 'apply', scope: 'operator', eventId: 'evt 2' }), 'operator|apply|evt 2');
    assert.equal(
      deadLetterKey({ stage: 'apply', scope: 'app:acme', subscriberId: 'u1', version: 12, message: 'absorb' }),
      'app:acme|apply|u1|12|absorb',
    );
    assert.equal(
      deadLetterKey({ stage: 'apply', scope: 'app:acme', subscriberId: 'u1', version: 0, message: 'mergeInto' }),
      'app:acme|apply|u1|0|mergeInto',
    );
    assert.equal(
      deadLetterKey({ stage: 'effect', scope: 'operator', subscriberId: 'org_1', version: 7, index: 2 }),
      'operator|effect|org_1|7|2',
    );
  });

  it('finds the records parked before: the same ids', () => {
    // Ids of records parked under the old formats (sha256 of the key, first 32 hex digits, after `dl_`).
    assert.equal(
      deadLetterId(deadLetterKey({ stage: 'relay', scope: 'app:acme', eventId: 'evt_1' })),
      'dl_396408e893f84bc9e6df31f32c4c2e40',
    );
    assert.equal(
      deadLetterId(deadLetterKey({ stage: 'effect', scope: 'operator', subscriberId: 'org_1', version: 7, index: 2 })),
      'dl_8a65636622b843f7f827897f1c622c09',
    );
  });

  it('keeps an event apply and a merge apply of the same record apart', () => {
    const event = deadLetterKey({ stage: 'apply', scope: 'app:acme', eventId: 'u1' });
    const merge = deadLetterKey({ stage: 'apply', scope: 'app:acme', subscriberId: 'u1', version: 1, message: 'absorb' });
    assert.notEqual(event, merge);
  });
});
