import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import ShopLedgerFields from '../../../renderer/components/settings/ShopLedgerFields.vue';
import { i18n } from '../../../renderer/i18n';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { installFakeTill, tillState } from '../support/fake-till';

// Settings' "Tills of this shop" (renderer/components/settings/ShopLedgerFields.vue): each setting
// edits the draft, what the organisation's policy locks is marked and cannot be changed, and the
// rest follows the ledger being on.
describe('the shop group in Settings', () => {
  let pinia: ReturnType<typeof createPinia>;
  beforeEach(() => {
    pinia = createPinia();
    setActivePinia(pinia);
    installFakeTill();
  });

  function shown(locked: string[], ledger = true) {
    const state = tillState();
    useSettingsStore().state = { ...state, managed: { locked: locked as never, problem: null, revision: 1 } };
    return mount(ShopLedgerFields, {
      props: { ledger, whenSplit: true, peers: '10.0.0.2:47231', port: 47231 },
      global: { plugins: [i18n, pinia] },
    });
  }

  it('edits each setting of the draft', async () => {
    const view = shown([]);
    await view.find('#shop-redeem-when-split').setValue(false);
    await view.find('#shop-peers').setValue('10.0.0.3:47231');
    expect(view.emitted('update:whenSplit')).toEqual([[false]]);
    expect(view.emitted('update:peers')).toEqual([['10.0.0.3:47231']]);
    expect(view.text()).not.toContain('Set by your organisation');
  });

  it('marks what the policy locks and lets nothing change it', () => {
    const view = shown(['shopLedger', 'shopPeers']);
    const ledger = view.find('#shop-ledger');
    expect(ledger.attributes('disabled')).toBeDefined();
    expect(view.find('label[for="shop-ledger"]').text()).toContain('Set by your organisation');
    expect(view.find('#shop-peers').attributes('readonly')).toBeDefined();
    expect(view.find('#shop-redeem-when-split').attributes('disabled')).toBeUndefined();
  });

  it('shows the main process’s word on the list, or on its first bad address, and on the port', async () => {
    const view = shown([]);
    useSettingsStore().fieldErrors = { 'shopPeers.1': 'Not an address.', shopLedgerPort: 'Not a port.' };
    await view.vm.$nextTick();
    expect(view.find('#shop-peers-error').text()).toBe('Not an address.');
    expect(view.find('#shop-ledger-port-error').text()).toBe('Not a port.');
    useSettingsStore().fieldErrors = { shopPeers: 'At most 16.', 'shopPeers.0': 'Not an address.' };
    await view.vm.$nextTick();
    expect(view.find('#shop-peers-error').text()).toBe('At most 16.');
  });

  it('with the ledger off, its other settings wait', () => {
    const view = shown([], false);
    expect(view.find('#shop-redeem-when-split').attributes('disabled')).toBeDefined();
    expect(view.find('#shop-peers').attributes('disabled')).toBeDefined();
    expect(view.find('#shop-ledger-port').attributes('disabled')).toBeDefined();
  });
});
