import { createPinia, setActivePinia } from 'pinia';
import { nextTick } from 'vue';
import { beforeEach, describe, expect, it } from 'vitest';
import { PAGE_PUSH_CHANNELS } from '../../../common/contract';
import type { DisplayModel } from '../../../common/display-model';
import { useCustomerDisplayStore } from '../../../renderer/stores/customer-display';
import { useCustomersStore } from '../../../renderer/stores/customers';
import { useNavigationStore } from '../../../renderer/stores/navigation';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { customer, installFakeTill, tillState, type FakeTill } from '../support/fake-till';

const receivedAt = '2026-11-27T10:00:00.000Z';

describe('the customer display’s store', () => {
  let till: FakeTill;
  let found = [customer()];

  beforeEach(async () => {
    setActivePinia(createPinia());
    till = installFakeTill();
    till.respond('getState', () => ({ ok: true, data: tillState({ defaultCountry: 'SA', displayIdleSeconds: 45 }) }));
    till.respond('searchCustomers', () => ({
      ok: true,
      data: found,
      meta: { current_page: 1, last_page: 1, per_page: 20, total: found.length },
    }));
    till.respond('getCustomer', () => ({ ok: true, data: customer({ rewards: [] }) }));
    await useSettingsStore().load();
    found = [customer()];
  });

  const shown = () => till.callsTo('showOnDisplay') as DisplayModel[];
  const settle = async () => {
    await nextTick();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };

  it('sends the model on start and on every change, each with a higher revision', async () => {
    const display = useCustomerDisplayStore();
    display.start();
    await settle();
    expect(shown().at(-1)).toMatchObject({ view: { kind: 'idle' }, idleSeconds: 45, language: 'en', revision: 1 });
    display.toggleBlank();
    await settle();
    expect(shown().at(-1)).toMatchObject({ view: { kind: 'blank' }, revision: 2 });
    display.toggleBlank();
    await settle();
    expect(shown().at(-1)).toMatchObject({ view: { kind: 'idle' }, revision: 3 });
    display.stop();
  });

  it('a phone typed on the display opens its customer, marked as entered by the customer', async () => {
    const display = useCustomerDisplayStore();
    await display.receive({ digits: '0501234567', receivedAt });
    expect(till.callsTo('searchCustomers')[0]).toMatchObject({ phone: '+966501234567' });
    expect(useNavigationStore().screen.name).toBe('customer');
    expect(display.enteredByCustomer).toBe('Entered by the customer on the display');
    expect(display.view).toMatchObject({ kind: 'customer', name: 'Layla H.' });
  });

  it('hears a typed phone on its own push channel, and a link message not at all', async () => {
    const display = useCustomerDisplayStore();
    display.start();
    till.push(PAGE_PUSH_CHANNELS.link, {
      kind: 'request',
      id: 'l1',
      request: { route: 'find', q: '0501234567' },
      receivedAt,
    });
    await settle();
    expect(till.callsTo('searchCustomers')).toEqual([]);
    till.push(PAGE_PUSH_CHANNELS.customerEntry, { digits: '0501234567', receivedAt });
    await settle();
    await settle();
    expect(till.callsTo('searchCustomers')[0]).toMatchObject({ phone: '+966501234567' });
    display.stop();
    till.push(PAGE_PUSH_CHANNELS.customerEntry, { digits: '0509990001', receivedAt });
    await settle();
    expect(till.callsTo('searchCustomers')).toHaveLength(1);
  });

  it('a number nobody has opens Register with it, and the display says so', async () => {
    found = [];
    const display = useCustomerDisplayStore();
    await display.receive({ digits: '0509990001', receivedAt });
    expect(useNavigationStore().screen.name).toBe('register');
    expect(useCustomersStore().draft.phone).toBe('+966 50 999 0001');
    expect(display.view).toEqual({ kind: 'not-found' });
  });

  it('does not interrupt a cashier in the middle of a form', async () => {
    const navigation = useNavigationStore();
    navigation.go({ name: 'register' });
    await useCustomerDisplayStore().receive({ digits: '0501234567', receivedAt });
    expect(till.callsTo('searchCustomers')).toEqual([]);
    expect(navigation.screen.name).toBe('register');
  });
});
