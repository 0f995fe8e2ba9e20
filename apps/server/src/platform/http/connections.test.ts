import { describe, expect, it } from 'vitest';
import { connectionKey } from './connections.js';

describe('connectionKey (what MAX_CONNECTIONS_PER_IP counts under)', () => {
  it('counts IPv4 per address, also when written as IPv6', () => {
    expect(connectionKey('203.0.113.7')).toBe('203.0.113.7');
    expect(connectionKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(connectionKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts IPv6 per /64, however the address is written', () => {
    const key = '2001:db8:0:1::/64';
    expect(connectionKey('2001:db8:0:1::5')).toBe(key);
    expect(connectionKey('2001:0DB8:0000:0001:ffff:1:2:3')).toBe(key);
    expect(connectionKey('2001:db8:0:1:abcd::')).toBe(key);
    expect(connectionKey('2001:db8:0:2::5')).not.toBe(key);
    expect(connectionKey('::1')).toBe('0:0:0:0::/64');
    expect(connectionKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
