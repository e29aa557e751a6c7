import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ShopLedgerFields from '../../../renderer/components/settings/ShopLedgerFields.vue';
import { i18n } from '../../../renderer/i18n';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { installFakeTill, tillState, type FakeTill } from '../support/fake-till';

// Settings' "Tills of this shop" (renderer/components/settings/ShopLedgerFields.vue): each setting
// edits the draft, what the organisation's policy locks is marked and cannot be changed, and the
// rest follows the ledger being on.
describe('the shop group in Settings', () => {
  let pinia: ReturnType<typeof createPinia>;
  let till: FakeTill;
  let others: Array<{ till: string; reachable: boolean; lastHeardAt: string | null }>;
  beforeEach(() => {
    pinia = createPinia();
    setActivePinia(pinia);
    till = installFakeTill();
    others = [];
    till.respond('shopTills', () => ({ ok: true, data: { enabled: true, tills: others } }));
  });
  afterEach(() => vi.useRealTimers());

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

  it('a locked text field is read-only, out of the Tab order, without its optional tag or how-to hint', () => {
    const open = shown([]);
    expect(open.find('label[for="shop-peers"] .field__tag').exists()).toBe(true);
    expect(open.find('#shop-peers-hint').exists()).toBe(true);
    const locked = shown(['shopPeers', 'shopLedgerPort', 'shopRedeemWhenSplit']);
    for (const id of ['shop-peers', 'shop-ledger-port']) {
      expect(locked.find(`#${id}`).attributes('readonly'), id).toBeDefined();
      expect(locked.find(`#${id}`).attributes('tabindex'), id).toBe('-1');
      expect(locked.find(`#${id}-hint`).exists(), id).toBe(false);
      expect(locked.find(`#${id}`).element.closest('.field--locked'), id).not.toBeNull();
    }
    expect(locked.find('label[for="shop-peers"] .field__tag').exists()).toBe(false);
    // What a till does while another cannot be reached is the organisation's to lock too.
    expect(locked.find('#shop-redeem-when-split').attributes('disabled')).toBeDefined();
    expect(locked.find('label[for="shop-redeem-when-split"]').text()).toContain('Set by your organisation');
  });

  it('shows the shop’s other tills live: who answers now, and when each was last heard from', async () => {
    vi.useFakeTimers();
    others = [{ till: 'Till 3', reachable: true, lastHeardAt: '2026-11-27T08:00:00.000Z' }];
    const view = shown([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(view.find('[data-testid="shop-tills"]').text()).toContain('Till 3');
    expect(view.find('[data-reachable="true"]').text()).toContain('Answers now');
    // Ten seconds later Till 3 no longer answers, and the list says so without a reload.
    others = [{ till: 'Till 3', reachable: false, lastHeardAt: '2026-11-27T08:00:00.000Z' }];
    await vi.advanceTimersByTimeAsync(10_000);
    expect(view.find('[data-reachable="false"]').text()).toMatch(/Not answering.*last heard from/);
    expect(till.callsTo('shopTills')).toHaveLength(2);
    view.unmount();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(till.callsTo('shopTills')).toHaveLength(2);
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
