import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readScan } from '../../../renderer/lib/scan-route';
import { useCustomersStore } from '../../../renderer/stores/customers';
import { useNavigationStore } from '../../../renderer/stores/navigation';
import { useRewardsStore } from '../../../renderer/stores/rewards';
import { useScansStore } from '../../../renderer/stores/scans';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { customer, installFakeTill, reward, tillState, type FakeTill } from '../support/fake-till';

const flush = () => new Promise((done) => setTimeout(done, 0));

describe('what a scan means', () => {
  it('reads reward codes in any case, phones with the till’s country, loyalty cards, and nothing else', () => {
    expect(readScan('rw-layla001', 'SA')).toEqual({ kind: 'reward', code: 'RW-LAYLA001' });
    expect(readScan('+966501234567', 'SA')).toMatchObject({ kind: 'phone', phone: { e164: '+966501234567' } });
    expect(readScan('00966501234567', 'SA')).toMatchObject({ kind: 'phone', phone: { e164: '+966501234567' } });
    expect(readScan('050 123 4567', 'SA')).toMatchObject({ kind: 'phone', phone: { e164: '+966501234567' } });
    expect(readScan('cc-00000001', 'SA')).toEqual({ kind: 'card', serial: 'CC-00000001' });
    expect(readScan('8412345678901', 'SA')).toEqual({ kind: 'card', serial: '8412345678901' });
    expect(readScan('hello world', 'SA')).toEqual({ kind: 'unknown', text: 'hello world' });
    expect(readScan('+12', 'SA')).toEqual({ kind: 'unknown', text: '+12' });
  });

  it('digits that read as a phone and could be a serial are ambiguous: phone first, then the card', () => {
    expect(readScan('0501234567', 'SA')).toMatchObject({
      kind: 'phone-or-card',
      phone: { e164: '+966501234567' },
      serial: '0501234567',
    });
    // A code beginning RW- is a reward code, never a card; a + is never part of a serial.
    expect(readScan('RW-00000001', 'SA').kind).toBe('reward');
  });
});

describe('scan routing', () => {
  let till: FakeTill;

  beforeEach(async () => {
    setActivePinia(createPinia());
    till = installFakeTill();
    till.respond('getState', () => ({ ok: true, data: tillState() }));
    till.respond('checkReward', () => ({ ok: true, data: reward() }));
    till.respond('getCustomer', () => ({ ok: true, data: customer({ rewards: [] }) }));
    await useSettingsStore().load();
  });

  it('opens the reward check for the customer on screen, and checks at once', async () => {
    const navigation = useNavigationStore();
    const customers = useCustomersStore();
    customers.current = customer();
    navigation.go({ name: 'customer' });
    useScansStore().handle('RW-LAYLA001', { field: null })?.();
    await flush();
    expect(navigation.screen.name).toBe('reward');
    expect(useRewardsStore().forCustomer?.id).toBe(customer().id);
    expect(till.callsTo('checkReward')).toEqual([{ reward_code: 'RW-LAYLA001', phone: '+966501234567' }]);
  });

  it('does not use a customer seen earlier when the cashier is back on the search screen', async () => {
    const customers = useCustomersStore();
    customers.current = customer();
    useScansStore().handle('RW-LAYLA001', { field: null })?.();
    await flush();
    expect(useRewardsStore().forCustomer).toBeNull();
    expect(till.callsTo('checkReward')).toHaveLength(0); // it asks for the phone first
  });

  it('opens the customer a scanned phone belongs to', async () => {
    till.respond('searchCustomers', () => ({
      ok: true,
      data: [customer()],
      meta: { current_page: 1, last_page: 1, per_page: 20, total: 1 },
    }));
    useScansStore().handle('+966501234567', { field: null })?.();
    // The answers are written through to the offline cache on the way (its data key opened,
    // its records sealed): give it its turns, on a test run that shares two cores with others.
    await vi.waitFor(() => expect(useNavigationStore().screen.name).toBe('customer'), { timeout: 5_000 });
    expect(till.callsTo('searchCustomers')).toEqual([{ phone: '+966501234567', page: 1, per_page: 20 }]);
  });

  it('leaves other scans alone, and ignores scans until the till is set up', async () => {
    const scans = useScansStore();
    expect(scans.handle('hello there', { field: null })).toBeNull();
    expect(scans.message).toContain('not a reward code, a phone number or a loyalty card');
    useNavigationStore().firstRun();
    expect(scans.handle('RW-LAYLA001', { field: null })).toBeNull();
  });
});
