// Which connections a till's ledger port takes (electron/shop-ledger/admission.ts): a few per
// address at once, and places kept for the shop's tills that strangers cannot take.
import { describe, expect, test } from 'vitest';
import { createAdmission, plainAddress } from '../../../electron/shop-ledger/admission';

const HOUR = 60 * 60 * 1000;
const limits = { total: 4, reserved: 2, perAddress: 2, knownForMs: 8 * HOUR };

describe('admission', () => {
  test('one address holds at most `perAddress` connections at once, and gets them back when closed', () => {
    const admission = createAdmission(limits);
    expect(admission.admit('10.0.0.9', 0)).toEqual({ ok: true });
    expect(admission.admit('10.0.0.9', 0)).toEqual({ ok: true });
    expect(admission.admit('10.0.0.9', 0)).toEqual({ ok: false, reason: 'address-busy' });
    admission.release('10.0.0.9');
    expect(admission.admit('10.0.0.9', 0)).toEqual({ ok: true });
  });

  test('strangers fill only the places not kept; a till heard from this shift takes a kept one', () => {
    const admission = createAdmission(limits);
    admission.know('10.0.0.1', 0);
    expect(admission.admit('10.0.0.8', 1)).toEqual({ ok: true });
    expect(admission.admit('10.0.0.9', 1)).toEqual({ ok: true });
    expect(admission.admit('10.0.0.7', 1)).toEqual({ ok: false, reason: 'too-many-connections' });
    expect(admission.admit('10.0.0.1', 1)).toEqual({ ok: true });
    expect(admission.admit('10.0.0.1', 1)).toEqual({ ok: true });
    // Every place taken: even the known till waits for one to close.
    expect(admission.admit('10.0.0.2', 1)).toEqual({ ok: false, reason: 'too-many-connections' });
    admission.release('10.0.0.8');
    expect(admission.admit('10.0.0.7', 1)).toEqual({ ok: true });
  });

  test('a till not heard from for a shift is a stranger again', () => {
    const admission = createAdmission(limits);
    admission.know('10.0.0.1', 0);
    expect(admission.isKnown('10.0.0.1', 8 * HOUR)).toBe(true);
    expect(admission.isKnown('10.0.0.1', 8 * HOUR + 1)).toBe(false);
  });

  test('an IPv4 peer named by a dual-stack socket is the same address', () => {
    expect(plainAddress('::ffff:10.0.0.2')).toBe('10.0.0.2');
    expect(plainAddress('fe80::1')).toBe('fe80::1');
    const admission = createAdmission(limits);
    admission.know('::ffff:10.0.0.2', 0);
    expect(admission.isKnown('10.0.0.2', 1)).toBe(true);
  });
});
