import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import ManagerPinSettings from '../../../renderer/components/settings/ManagerPinSettings.vue';
import { i18n } from '../../../renderer/i18n';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { installFakeTill, tillState } from '../support/fake-till';

// Settings' manager PIN (renderer/components/settings/ManagerPinSettings.vue): set on the till,
// or given by the organisation's policy, when it is said so and offered for no change.
describe('the manager PIN in Settings', () => {
  let pinia: ReturnType<typeof createPinia>;
  beforeEach(() => {
    pinia = createPinia();
    setActivePinia(pinia);
    installFakeTill();
  });

  function shown(state: Partial<ReturnType<typeof tillState>>) {
    useSettingsStore().state = { ...tillState(), ...state };
    return mount(ManagerPinSettings, { global: { plugins: [i18n, pinia] } });
  }

  it('offers to set, change or remove a PIN the till keeps', () => {
    const view = shown({ pinSet: true, pinManaged: false });
    expect(view.find('[data-testid="new-manager-pin"]').exists()).toBe(true);
    expect(view.find('[data-testid="save-manager-pin"]').text()).toBe('Change PIN');
    expect(view.text()).not.toContain('Set by your organisation');
  });

  it('shows the organisation’s PIN as theirs, with nothing to change it by', () => {
    const view = shown({ pinSet: true, pinManaged: true });
    expect(view.find('h2').text()).toContain('Set by your organisation');
    expect(view.find('[data-testid="new-manager-pin"]').exists()).toBe(false);
    expect(view.find('[data-testid="save-manager-pin"]').exists()).toBe(false);
    expect(view.find('[data-testid="manager-pin-state"]').text()).toContain('A manager PIN is set.');
  });
});
