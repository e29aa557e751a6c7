import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import CustomerDisplaySettings from '../../../renderer/components/settings/CustomerDisplaySettings.vue';
import { i18n } from '../../../renderer/i18n';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { installFakeTill, tillState, type FakeTill } from '../support/fake-till';

// Settings' "Customer display" (renderer/components/settings/CustomerDisplaySettings.vue): the
// display's address is the one the main process gives (its own listener, origin and secret in
// the browser shell), never one made from the till page's own address.
describe('the customer display in Settings', () => {
  let pinia: ReturnType<typeof createPinia>;
  let till: FakeTill;
  beforeEach(() => {
    pinia = createPinia();
    setActivePinia(pinia);
    till = installFakeTill();
    useSettingsStore().state = tillState();
  });

  const shown = async () => {
    const view = mount(CustomerDisplaySettings, { global: { plugins: [i18n, pinia] } });
    await flushPromises();
    return view;
  };

  it('shows the browser shell’s display address as the main process gives it', async () => {
    const address = 'http://127.0.0.1:45678/Zq3x9bV4mK2pL8xVQ7w3ZtY9mK2pL8xVQ7w3ZtY9mK2/display';
    till.respond('displayAddress', () => ({ ok: true, data: { address } }));
    const view = await shown();
    expect(view.find('[data-testid="customer-display-address"]').text()).toBe(address);
    expect(till.callsTo('displayAddress')).toHaveLength(1);
  });

  it('shows none where the display is a window (Electron), with screens to choose from', async () => {
    till.respond('listScreens', () => ({
      ok: true,
      data: [{ id: 2, label: 'Customer', width: 1024, height: 768, cashiers: false }],
    }));
    const view = await shown();
    expect(view.find('[data-testid="customer-display-address"]').exists()).toBe(false);
    expect(view.find('#customer-display-screen').text()).toContain('Customer');
  });
});
