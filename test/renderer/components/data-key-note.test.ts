import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyProtection } from '../../../common/contract';
import DataKeyNote from '../../../renderer/components/settings/DataKeyNote.vue';
import { i18n } from '../../../renderer/i18n';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { installFakeTill, tillState } from '../support/fake-till';

// Settings' line on the data key (renderer/components/settings/DataKeyNote.vue): how the key
// the till's data is kept under is protected, in the words of the till's state, both languages.
describe('the data key in Settings', () => {
  let pinia: ReturnType<typeof createPinia>;
  beforeEach(() => {
    pinia = createPinia();
    setActivePinia(pinia);
    installFakeTill();
  });
  afterEach(() => {
    i18n.global.locale.value = 'en';
  });

  function shown(protection: KeyProtection | null) {
    const state = tillState();
    useSettingsStore().state = protection ? { ...state, dataKey: { state: 'ready', protection, kept: true } } : null;
    return mount(DataKeyNote, { global: { plugins: [i18n, pinia] } });
  }
  const line = (view: ReturnType<typeof shown>) => view.find('[data-testid="data-key-protection"]').text();

  it('says the operating system protects it, in the Electron app', () => {
    expect(line(shown('os'))).toBe('Its key is protected by the operating system.');
  });

  it('says plainly that the browser shell’s key file is not the operating system’s protection', () => {
    const view = shown('key_file');
    expect(view.text()).toContain('Data kept on this till');
    expect(line(view)).toMatch(/not protected by the operating system in the browser: .*key file/);
  });

  it('says so where the computer has no keyring, or cannot keep the key at all', () => {
    expect(line(shown('basic_text'))).toMatch(/no keyring/);
    expect(line(shown('unavailable'))).toMatch(/new key is made at each start/);
  });

  it('in Arabic too', () => {
    i18n.global.locale.value = 'ar';
    expect(line(shown('key_file'))).toContain('لا يحميه نظام التشغيل في وضع المتصفح');
  });

  it('says nothing before the till’s state is known', () => {
    expect(shown(null).find('[data-testid="data-key-protection"]').exists()).toBe(false);
  });
});
