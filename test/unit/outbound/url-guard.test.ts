import assert from 'node:assert/strict';
import { checkUrl, refusedAddress, resolveSafely, UnsafeUrlError } from '../../../src/outbound/url-guard';

describe('outbound webhooks: URL guard', () => {
  it('refuses private, loopback, link-local, CGNAT, unique-local and metadata addresses', () => {
    for (const a of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
    ]) {
      assert.ok(refusedAddress(a, false), a);
    }
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])
      assert.equal(refusedAddress(a, false), null, a);
    assert.equal(refusedAddress('127.0.0.1', true), null);
    assert.ok(refusedAddress('10.0.0.1', true), 'the development setting allows loopback only');
    assert.ok(refusedAddress('169.254.169.254', true));
  });

  it('refuses every IANA special-purpose range, IPv4 embedded in IPv6 and tunnels included, and says which', () => {
    const special: Record<string, string[]> = {
      documentation: ['192.0.2.1', '198.51.100.7', '203.0.113.9', '2001:db8::1', '3fff::1'],
      'IETF protocol assignments and 6to4 relay': ['192.0.0.8', '192.88.99.1'],
      benchmarking: ['198.18.0.1', '198.19.255.255', '2001:2::1'],
      'multicast, broadcast and reserved': ['224.0.0.1', '239.1.1.1', '240.0.0.1', '255.255.255.255', 'ff02::1'],
      'IPv4 embedded in IPv6': ['::127.0.0.1', '::ffff:0:127.0.0.1', '::ffff:192.168.0.1', '64:ff9b::a00:1', '64:ff9b::808:808'],
      tunnels: ['2002:a00:1::1', '2002:c000:204::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
      'site-local and discard': ['fec0::1', 'feff::1', '100::1'],
      unspecified: ['0.0.0.0', '::'],
    };
    for (const [what, addresses] of Object.entries(special)) {
      for (const a of addresses) assert.match(refusedAddress(a, false) ?? '', /not a public address|loopback/, `${what}: ${a}`);
    }
    // Even with loopback allowed (development), only loopback itself passes.
    for (const a of ['::ffff:0:127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1']) assert.ok(refusedAddress(a, true), a);
    assert.equal(refusedAddress('::127.0.0.1', true), null, 'IPv4-mapped loopback is loopback');
    assert.ok(refusedAddress('not-an-address', false));
  });

  it('judges IPv4-compatible and ISATAP addresses by the IPv4 address they embed, written either way', () => {
    // A URL parser writes [::127.0.0.1] as [::7f00:1], which ipaddr.js alone calls unicast.
    assert.equal(new URL('https://[::127.0.0.1]/').hostname, '[::7f00:1]');
    for (const a of ['::7f00:1', '0:0:0:0:0:0:127.0.0.1', '::a00:1', '::a9fe:a9fe', '::c0a8:101', '::6440:1', '::e000:1'])
      assert.match(refusedAddress(a, false) ?? '', /not a public address|loopback/, a);
    for (const a of ['2606:4700::5efe:7f00:1', '2606:4700::200:5efe:a00:1', '2606:4700::100:5efe:c0a8:101', 'fe80::5efe:808:808'])
      assert.match(refusedAddress(a, false) ?? '', /not a public address|loopback/, a);
    assert.equal(refusedAddress('::7f00:1', true), null, 'loopback, allowed in development');
    // What they embed is public (and the ISATAP prefix global): judged as usual.
    for (const a of ['::808:808', '2606:4700::5efe:808:808', '2606:4700:4700::1111']) assert.equal(refusedAddress(a, false), null, a);
    for (const a of ['::', '::1']) assert.ok(refusedAddress(a, false), a);
    assert.throws(() => checkUrl('https://[::127.0.0.1]/hook', false), UnsafeUrlError);
  });

  it('checks scheme, credentials, length and metadata host names', () => {
    assert.throws(() => checkUrl('http://example.com/hook', false), UnsafeUrlError);
    assert.ok(checkUrl('http://127.0.0.1:9/hook', true));
    assert.throws(() => checkUrl('ftp://example.com/', true), UnsafeUrlError);
    assert.throws(() => checkUrl('https://u:p@example.com/', false), UnsafeUrlError);
    assert.throws(() => checkUrl('https://metadata.google.internal/computeMetadata', false), UnsafeUrlError);
    assert.throws(() => checkUrl('https://[fd00:ec2::254]/', false), UnsafeUrlError);
    assert.throws(() => checkUrl(`https://example.com/${'a'.repeat(3000)}`, false), UnsafeUrlError);
    assert.throws(() => checkUrl('not a url', false), UnsafeUrlError);
  });

  it('checks every address a name resolves to', async () => {
    const resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    await assert.rejects(resolveSafely(new URL('https://mixed.example/'), false, resolver), UnsafeUrlError);
    const ok = await resolveSafely(new URL('https://fine.example/'), false, async () => [{ address: '93.184.216.34', family: 4 }]);
    assert.deepEqual(ok, { address: '93.184.216.34', family: 4 });
    await assert.rejects(resolveSafely(new URL('https://localhost/'), false), UnsafeUrlError);
  });

  it('says which address a name resolved to and why it is refused, naming the setting that allows loopback', async () => {
    const loopback = async () => [{ address: '127.0.0.1', family: 4 }];
    await assert.rejects(resolveSafely(new URL('https://localhost/'), false, loopback), {
      message:
        'localhost resolves to 127.0.0.1, which is a loopback address (OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK=true allows it, in development only)',
    });
    await assert.rejects(
      resolveSafely(new URL('https://inside.example/'), false, async () => [{ address: '10.0.0.5', family: 4 }]),
      {
        message: /^inside\.example resolves to 10\.0\.0\.5, which is not a public address \(private\)/,
      },
    );
    assert.throws(() => checkUrl('http://127.0.0.1:4000/hooks', false), {
      message: 'url must use https (http to a loopback receiver: OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK=true allows it, in development only)',
    });
    assert.equal(
      refusedAddress('127.0.0.1', false),
      '127.0.0.1 is a loopback address (OUTBOUND_WEBHOOKS_ALLOW_LOOPBACK=true allows it, in development only)',
    );
  });
});
