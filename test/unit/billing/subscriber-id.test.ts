import assert from 'node:assert/strict';
import { appScope, resolveSubscriberIds, workflowIdFor, workflowIdSegment } from '../../../src/billing/subscriber-id';
import { ANON, T0, USER, aliasEvent, monthly, subEvent, transferEvent } from './fixtures';

describe('subscriber ids', () => {
  describe('resolveSubscriberIds', () => {
    it('names original_app_user_id, then app_user_id, then aliases, without repeats; the smallest id is the primary', () => {
      const ids = resolveSubscriberIds(subEvent('RENEWAL', 'e1', T0, monthly(0), { aliases: [ANON, 'legacy-7', USER] }));
      assert.deepEqual(ids, { primary: ANON, all: [ANON, USER, 'legacy-7'] });
      const known = resolveSubscriberIds(
        subEvent('RENEWAL', 'e3', T0, monthly(0), { original_app_user_id: 'zed', app_user_id: 'amy', aliases: ['zed', 'amy'] }),
      );
      assert.deepEqual(known, { primary: 'amy', all: ['amy', 'zed'] }, 'the record that stays canonical when they merge');
    });

    it('falls back to app_user_id, then to the aliases', () => {
      const noOriginal = subEvent('RENEWAL', 'e1', T0, monthly(0), { original_app_user_id: null, aliases: [USER] });
      assert.equal(resolveSubscriberIds(noOriginal)?.primary, USER);
      const aliasesOnly = subEvent('RENEWAL', 'e2', T0, monthly(0), {
        original_app_user_id: '',
        app_user_id: undefined,
        aliases: ['a-2', 'a-1'],
      });
      assert.deepEqual(resolveSubscriberIds(aliasesOnly), { primary: 'a-1', all: ['a-1', 'a-2'] });
    });

    it("names a TRANSFER's destination ids and its sources; the smallest of them is the primary", () => {
      const ids = resolveSubscriberIds(transferEvent('t1', T0, ['old-1', ANON], ['new-1', 'new-1-alias']));
      assert.deepEqual(ids, { primary: ANON, all: [ANON, 'new-1', 'new-1-alias', 'old-1'] });
    });

    it('returns null when the event names nobody', () => {
      assert.equal(resolveSubscriberIds({ id: 'x', type: 'TEST' }), null);
      assert.equal(resolveSubscriberIds(transferEvent('t2', T0, ['old-1'], [])), null);
    });

    it('reads SUBSCRIBER_ALIAS like any other event', () => {
      assert.deepEqual(resolveSubscriberIds(aliasEvent('a1', T0, ANON, [ANON, USER])), { primary: ANON, all: [ANON, USER] });
    });
  });

  describe('workflowIdFor', () => {
    it('is billing/{scope}/{subscriberId}, keeping anonymous ids readable', () => {
      assert.equal(workflowIdFor(appScope('acme'), ANON), `billing/app:acme/${ANON}`);
      assert.equal(workflowIdFor('operator', 'org_42'), 'billing/operator/org_42');
      assert.equal(workflowIdFor('operator', 'ada+test@example.com'), 'billing/operator/ada+test@example.com');
    });

    it('escapes characters that would fake a path segment or break a link or query', () => {
      assert.equal(workflowIdSegment('a/b'), 'a%2Fb');
      assert.equal(workflowIdSegment('50% off'), '50%25%20off');
      assert.equal(workflowIdSegment("it's?#&\\"), 'it%27s%3F%23%26%5C');
      assert.equal(workflowIdSegment('zoë'), 'zo%C3%AB');
      assert.equal(workflowIdSegment('😀'), '%F0%9F%98%80');
      assert.equal(workflowIdSegment('\n'), '%0A');
    });

    it('is injective on ids that look alike once escaped', () => {
      const ids = ['a/b', 'a%2Fb', 'a%252Fb', 'a\uD800b', 'a\uDBFFb', 'a\uFFFDb', 'a b', 'a+b'];
      const segments = ids.map(workflowIdSegment);
      assert.equal(new Set(segments).size, ids.length, segments.join(' | '));
    });

    it('caps overlong ids with a readable prefix and a hash of the whole id', () => {
      const long = `user-${'x'.repeat(400)}`;
      const other = `user-${'x'.repeat(399)}y`;
      const segment = workflowIdSegment(long);
      assert.equal(segment.length, 200);
      assert.ok(segment.startsWith('user-xxxx'));
      assert.match(segment, /%~[0-9a-f]{16}$/);
      assert.notEqual(workflowIdSegment(other), segment);
      assert.equal(workflowIdSegment(long), segment);
      // Escapes are never cut in half.
      const escaped = workflowIdSegment('/'.repeat(100));
      assert.match(escaped, /^(%2F)+%~[0-9a-f]{16}$/);
    });
  });
});
