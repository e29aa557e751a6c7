import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import ShortcutBar from '../../../renderer/components/ShortcutBar.vue';
import { i18n } from '../../../renderer/i18n';
import type { ScreenName } from '../../../renderer/lib/screens';
import { useNavigationStore } from '../../../renderer/stores/navigation';
import { useRewardsStore } from '../../../renderer/stores/rewards';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { installFakeTill, tillState } from '../support/fake-till';

// The bar reads the key table (renderer/lib/app-keys.ts) in the stores' context: what it shows
// follows the screen, an outcome on screen, the till being set up; a tap runs the key.

let pinia: ReturnType<typeof createPinia>;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  installFakeTill();
});

function bar(screen: ScreenName, options: { firstRun?: boolean; outcome?: boolean; configured?: boolean } = {}) {
  useSettingsStore().state = tillState({}, options.configured === false ? 'unconfigured' : 'service');
  const navigation = useNavigationStore();
  if (options.firstRun) navigation.firstRun();
  else if (screen !== 'find') navigation.go({ name: screen } as never);
  if (options.outcome) {
    useRewardsStore().redeemOutcome = {
      kind: 'queued',
      item: { seq: 1 } as never,
      answerLost: false,
      unreachableTills: [],
    };
  }
  const view = mount(ShortcutBar, { global: { plugins: [i18n, pinia] } });
  return {
    view,
    keys: view.findAll('.shortcut kbd').map((key) => key.text()),
    text: view.text(),
    /** Keys shown on wide screens only. */
    wide: view.findAll('.shortcut--wide kbd').map((key) => key.text()),
    scan: view.find('.shortcut--scan').exists(),
  };
}

describe('the shortcut bar', () => {
  it('leaves out the key of the screen on show, and Esc where Esc leads', () => {
    // The report is in the bar on Find too: a touch-only till has no F7.
    // F8 is the header's Outbox button, which shows its key.
    expect(bar('find').keys).toEqual(['↑ ↓', 'Enter', 'PgUp PgDn', 'F3', 'F7', 'F9']);
    setActivePinia((pinia = createPinia()));
    expect(bar('outbox').keys).toEqual(['Esc', 'F2', 'F3', 'F7', 'F9']);
    setActivePinia((pinia = createPinia()));
    expect(bar('settings').keys).toEqual(['Esc', 'F2', 'F3', 'F7']);
    setActivePinia((pinia = createPinia()));
    expect(bar('customer').keys).toEqual(['F4', 'Esc', 'F2', 'F3', 'F7', 'F9']);
    setActivePinia((pinia = createPinia()));
    expect(bar('report').keys).toEqual(['Esc', 'F2', 'F3', 'F9']);
  });

  it('keeps F7 and F9 at every width, and leaves F2 (Esc leads there), the list keys and the scanning line to wide screens', () => {
    const customer = bar('customer');
    expect(customer.wide).toEqual(['F2']);
    expect(customer.scan).toBe(true);
    setActivePinia((pinia = createPinia()));
    const find = bar('find');
    expect(find.wide).toEqual(['↑ ↓', 'PgUp PgDn']);
    // Find says it in the screen itself.
    expect(find.scan).toBe(false);
  });

  it('is a row of buttons for the app-wide keys: a tap does what the key does', async () => {
    const { view } = bar('find');
    expect(view.findAll('button.shortcut kbd').map((key) => key.text())).toEqual(['F3', 'F7', 'F9']);
    await view.get('[data-testid="shortcut-F7"]').trigger('click');
    expect(useNavigationStore().screen.name).toBe('report');
    await view.get('[data-testid="shortcut-Esc"]').trigger('click');
    expect(useNavigationStore().screen.name).toBe('find');
  });

  it('says Esc is "next customer" on an outcome, and "back" elsewhere', () => {
    const outcome = bar('reward', { outcome: true });
    expect(outcome.text).toContain('Esc next customer');
    expect(outcome.text).not.toContain('back');
    setActivePinia((pinia = createPinia()));
    expect(bar('reward').text).toContain('Esc back');
  });

  it('promises no scanning before the till is set up, and offers only Tab on first run', () => {
    expect(bar('settings', { firstRun: true, configured: false })).toMatchObject({ keys: ['Tab'], scan: false });
    setActivePinia((pinia = createPinia()));
    expect(bar('outbox', { configured: false }).scan).toBe(false);
  });
});
