import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { useConnectionStore } from '../../../renderer/stores/connection';
import { useCustomersStore } from '../../../renderer/stores/customers';
import { useOfflineStore } from '../../../renderer/stores/offline';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { customer, installFakeTill, reward, tillState, type FakeTill } from '../support/fake-till';

describe('customers store', () => {
  let till: FakeTill;

  beforeEach(async () => {
    setActivePinia(createPinia());
    till = installFakeTill();
    till.respond('getState', () => ({ ok: true, data: tillState({ defaultCountry: 'SA' }) }));
    await useSettingsStore().load();
    till.respond('searchCustomers', (payload) => ({
      ok: true,
      data: [customer()],
      meta: { current_page: payload.page ?? 1, last_page: 3, per_page: 20, total: 45 },
    }));
  });

  it('looks up a local phone exactly, in E.164 with the till’s country', async () => {
    const customers = useCustomersStore();
    customers.query = '050 123 4567';
    expect(customers.reading?.international).toBe('+966 50 123 4567');
    await customers.search();
    expect(till.callsTo('searchCustomers')).toEqual([{ phone: '+966501234567', page: 1, per_page: 20 }]);
  });

  it('searches anything else as part of a name or number', async () => {
    const customers = useCustomersStore();
    customers.query = '  Haddad ';
    await customers.search();
    expect(till.callsTo('searchCustomers')).toEqual([{ search: 'Haddad', page: 1, per_page: 20 }]);
    expect(customers.activeIndex).toBe(0);
  });

  it('pages within the last search, not whatever is in the box now', async () => {
    const customers = useCustomersStore();
    customers.query = 'Haddad';
    await customers.search();
    customers.query = 'something else';
    await customers.goToPage(2);
    expect(till.callsTo('searchCustomers').at(-1)).toEqual({ search: 'Haddad', page: 2, per_page: 20 });
    await customers.goToPage(4); // past the last page
    expect(till.callsTo('searchCustomers')).toHaveLength(2);
  });

  it('drops a slow answer to an older search', async () => {
    const customers = useCustomersStore();
    let releaseOld: () => void = () => undefined;
    till.respond('searchCustomers', (payload) =>
      payload.search === 'old'
        ? new Promise((resolve) => {
            releaseOld = () =>
              resolve({
                ok: true,
                data: [customer({ name: 'Old' })],
                meta: { current_page: 1, last_page: 1, per_page: 20, total: 1 },
              });
          })
        : {
            ok: true,
            data: [customer({ name: 'New' })],
            meta: { current_page: 1, last_page: 1, per_page: 20, total: 1 },
          },
    );
    customers.query = 'old';
    const old = customers.search();
    customers.query = 'new';
    await customers.search();
    releaseOld();
    await old;
    expect(customers.results.map((c) => c.name)).toEqual(['New']);
  });

  it('answers from the cache when the service cannot be reached, says so, and tells the header', async () => {
    const customers = useCustomersStore();
    customers.query = 'Haddad';
    await customers.search(); // online: the answer is written through to the cache
    expect(customers.resultsFromCache).toBeNull();
    till.respond('searchCustomers', () => ({ ok: false, error: { kind: 'offline', message: 'Connection refused.' } }));
    customers.query = 'haddad';
    await customers.search();
    expect(customers.searchError).toBeNull();
    expect(customers.results.map((c) => c.name)).toEqual(['Layla Haddad']);
    expect(customers.resultsFromCache?.of).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(useConnectionStore().state).toBe('offline');
  });

  it('keeps what the last search found beside a failed one, and clears all of it at once', async () => {
    const customers = useCustomersStore();
    customers.query = 'Haddad';
    await customers.search();
    till.respond('searchCustomers', () => ({
      ok: false,
      error: { kind: 'validation', message: 'Search text is too long.' },
    }));
    customers.query = 'Haddad again';
    await customers.search();
    expect(customers.searchError?.message).toBe('Search text is too long.');
    expect(customers.results.map((c) => c.name)).toEqual(['Layla Haddad']);
    expect(customers.searchedFor?.query).toBe('Haddad');
    customers.clearSearch();
    expect([customers.query, customers.results, customers.meta, customers.searchError]).toEqual(['', [], null, null]);
    expect([customers.searchedFor, customers.resultsFromCache, customers.activeIndex]).toEqual([null, null, -1]);
  });

  it('says the service cannot be reached when the cache does not have the customer either', async () => {
    const customers = useCustomersStore();
    till.respond('getCustomer', () => ({ ok: false, error: { kind: 'offline', message: 'Connection refused.' } }));
    expect(await customers.open('a0000000-0000-4000-8000-00000000abcd')).toBe(false);
    expect(customers.customerError?.kind).toBe('offline');
  });

  it('opens a cached customer offline with their rewards, saying where it came from', async () => {
    const customers = useCustomersStore();
    till.respond('getCustomer', () => ({ ok: true, data: customer({ rewards: [reward()] }) }));
    expect(await customers.open(customer().id)).toBe(true);
    expect(customers.origin?.source).toBe('service');
    till.respond('getCustomer', () => ({ ok: false, error: { kind: 'timeout', message: 'No answer.' } }));
    expect(await customers.open(customer().id)).toBe(true);
    expect(customers.origin).toMatchObject({ source: 'cache', localOnly: false, pendingCodes: [] });
    expect(customers.origin?.cachedAt).toBeTruthy();
    expect(customers.current?.rewards?.map((r) => r.code)).toEqual(['RW-LAYLA001']);
  });

  it('queues a registration made offline and makes the customer usable at once', async () => {
    const customers = useCustomersStore();
    till.respond('registerCustomer', () => ({ ok: false, error: { kind: 'offline', message: 'Connection refused.' } }));
    customers.startRegister('0559876543');
    customers.draft.name = 'Noura Saleh';
    expect(await customers.register()).toBe(true);
    expect(customers.notice?.kind).toBe('queued');
    expect(customers.notice?.text).toContain('when the till reconnects');
    expect(customers.current).toMatchObject({ name: 'Noura Saleh', phone: '+966 55 987 6543' });
    expect(customers.origin?.localOnly).toBe(true);
    expect(await useOfflineStore().services().counts()).toMatchObject({ pending: 1 });
  });

  it('says whether registering created a customer or found the existing one', async () => {
    const customers = useCustomersStore();
    till.respond('getCustomer', () => ({ ok: true, data: customer({ rewards: [] }) }));
    till.respond('registerCustomer', () => ({ ok: true, status: 201, data: { customer: customer(), created: true } }));
    customers.startRegister('050 123 4567');
    customers.draft.name = ' Layla Haddad ';
    expect(await customers.register()).toBe(true);
    expect(customers.notice?.kind).toBe('created');
    expect(till.callsTo('registerCustomer')).toEqual([{ name: 'Layla Haddad', phone: '+966501234567' }]);

    till.respond('registerCustomer', () => ({ ok: true, status: 200, data: { customer: customer(), created: false } }));
    customers.startRegister('+966501234567');
    customers.draft.name = 'Someone Else';
    await customers.register();
    expect(customers.notice?.kind).toBe('existing');
    expect(customers.notice?.text).toContain('already registered');
  });

  it('refuses an unreadable phone before any call, and keeps everything typed', async () => {
    const customers = useCustomersStore();
    customers.startRegister('12');
    customers.draft.name = 'Name';
    customers.draft.email = 'a@example.com';
    expect(await customers.register()).toBe(false);
    expect(customers.fieldErrors.phone).toBeTruthy();
    expect(till.callsTo('registerCustomer')).toHaveLength(0);
    expect(customers.draft).toEqual({ name: 'Name', phone: '12', email: 'a@example.com', birthday: '' });
  });

  it('puts the service’s field errors beside their fields and keeps the draft', async () => {
    const customers = useCustomersStore();
    till.respond('registerCustomer', () => ({
      ok: false,
      error: {
        kind: 'validation',
        status: 422,
        message: 'email is invalid',
        fields: { email: 'Not a valid email address.' },
      },
    }));
    customers.startRegister('+966501234567');
    customers.draft.name = 'Layla';
    customers.draft.email = 'layla@example.com';
    expect(await customers.register()).toBe(false);
    expect(customers.fieldErrors).toEqual({ email: 'Not a valid email address.' });
    expect(customers.draft.email).toBe('layla@example.com');
    expect(customers.draft.name).toBe('Layla');
  });

  it('names every bad field at once before asking the service', async () => {
    const customers = useCustomersStore();
    customers.startRegister('12');
    customers.draft.email = 'layla@';
    customers.draft.birthday = '2999-01-01';
    expect(await customers.register()).toBe(false);
    expect(Object.keys(customers.fieldErrors).sort()).toEqual(['birthday', 'email', 'name', 'phone']);
    expect(till.callsTo('registerCustomer')).toHaveLength(0);
  });

  it('never sends the phone with a correction', async () => {
    const customers = useCustomersStore();
    customers.current = customer({ rewards: [] });
    till.respond('updateCustomer', (payload) => ({ ok: true, data: customer({ name: payload.name ?? '' }) }));
    customers.startCorrect();
    customers.draft.name = 'Layla H. Haddad';
    customers.draft.phone = '+44 7700 900123'; // even if something wrote to it
    expect(await customers.saveCorrection()).toBe(true);
    const [sent] = till.callsTo('updateCustomer') as Array<Record<string, unknown>>;
    expect(sent).not.toHaveProperty('phone');
    expect(sent).toMatchObject({ id: customer().id, name: 'Layla H. Haddad' });
    expect(customers.current?.name).toBe('Layla H. Haddad');
    expect(customers.current?.rewards).toEqual([]);
  });

  it('removes an emptied email or birthday with null, and sends nothing that was not changed', async () => {
    const customers = useCustomersStore();
    customers.current = customer({ email: 'layla@example.com', birthday: '1990-04-12', rewards: [] });
    till.respond('updateCustomer', (payload) => ({
      ok: true,
      data: customer({
        email: payload.email === undefined ? 'layla@example.com' : payload.email,
        birthday: '1990-04-12',
      }),
    }));
    customers.startCorrect();
    customers.draft.email = '   ';
    expect(await customers.saveCorrection()).toBe(true);
    expect(till.callsTo('updateCustomer')).toEqual([{ id: customer().id, email: null }]);
    expect(customers.current?.email).toBeNull();

    till.respond('updateCustomer', () => ({ ok: true, data: customer({ email: null, birthday: null }) }));
    customers.startCorrect();
    customers.draft.birthday = '';
    expect(await customers.saveCorrection()).toBe(true);
    expect(till.callsTo('updateCustomer').at(-1)).toEqual({ id: customer().id, birthday: null });
    expect(customers.current?.birthday).toBeNull();
  });

  it('sends only the fields a correction changed, and nothing at all when none changed', async () => {
    const customers = useCustomersStore();
    customers.current = customer({ email: null, birthday: '1990-04-12' });
    till.respond('updateCustomer', () => ({
      ok: true,
      data: customer({ email: 'new@example.com', birthday: '1990-04-12' }),
    }));
    customers.startCorrect();
    expect(await customers.saveCorrection()).toBe(true);
    expect(till.callsTo('updateCustomer')).toHaveLength(0);
    expect(customers.notice?.text).toContain('Nothing was changed');

    customers.startCorrect();
    customers.draft.email = ' new@example.com ';
    expect(await customers.saveCorrection()).toBe(true);
    expect(till.callsTo('updateCustomer')).toEqual([{ id: customer().id, email: 'new@example.com' }]);
  });

  it('does not carry a "registered" notice over to the next customer opened', async () => {
    const customers = useCustomersStore();
    const other = customer({ id: 'a0000000-0000-4000-8000-000000000002', name: 'Omar Al-Farsi' });
    till.respond('registerCustomer', () => ({ ok: true, status: 201, data: { customer: customer(), created: true } }));
    till.respond('getCustomer', (payload) => ({ ok: true, data: payload.id === other.id ? other : customer() }));
    customers.startRegister('+966501234567');
    customers.draft.name = 'Layla Haddad';
    await customers.register();
    expect(customers.notice?.kind).toBe('created'); // kept through the reload of the same customer
    await customers.open(other.id);
    expect(customers.notice).toBeNull();
  });
});
