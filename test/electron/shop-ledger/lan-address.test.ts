// Which remote addresses the ledger's port answers, and which discovered addresses a till
// dials (electron/shop-ledger/lan-address.ts).
import { describe, expect, test } from 'vitest';
import { isDialableLanAddress, isLanAddress } from '../../../electron/shop-ledger/lan-address';

describe('the shop’s LAN', () => {
  test.each([
    '10.0.0.7',
    '172.16.4.2',
    '172.31.255.254',
    '192.168.1.20',
    '169.254.10.1',
    '127.0.0.1',
    '::ffff:192.168.1.20', // an IPv4 peer as a dual-stack listener sees it
    'fd00::2',
    'fe80::1%eth0',
    '::1',
  ])('%s is on it', (address) => {
    expect(isLanAddress(address)).toBe(true);
  });

  test.each([
    '8.8.8.8',
    '172.32.0.1',
    '192.0.2.2',
    '100.64.0.1',
    '::ffff:8.8.8.8',
    '2001:db8::1',
    'till-1.local',
    '',
    undefined,
  ])('%s is not', (address) => {
    expect(isLanAddress(address)).toBe(false);
  });

  test('link-local IPv6 is answered but never dialled: a record carries no zone', () => {
    expect(isDialableLanAddress('fe80::1')).toBe(false);
    expect(isDialableLanAddress('fd00::2')).toBe(true);
    expect(isDialableLanAddress('192.168.1.20')).toBe(true);
    expect(isDialableLanAddress('8.8.8.8')).toBe(false);
  });
});
