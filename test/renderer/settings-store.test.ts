import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSettingsStore } from '../../renderer/stores/settings';
import { installFakeTill, tillState, type FakeTill } from './support/fake-till';

describe('settings store', () => {
  let till: FakeTill;

  beforeEach(() => {
    setActivePinia(createPinia());
    till = installFakeTill();
  });

  it('knows the key only as "set, ending in …"', async () => {
    till.respond('getState', () => ({ ok: true, data: tillState() }));
    const settings = useSettingsStore();
    await settings.load();
    expect(settings.keyDescription).toBe('set, ending in 4821');
    expect(settings.draftFromState().apiKey).toBe('');
  });

  it('is unconfigured until a service or the demo is set up, and the demo says so', async () => {
    const blank = tillState({ baseUrl: null });
    till.respond('getState', () => ({ ok: true, data: { ...blank, key: { set: false, lastFour: null, protection: 'os' }, mode: 'unconfigured' } }));
    till.respond('startDemo', () => ({ ok: true, data: tillState({}, 'demo') }));
    const settings = useSettingsStore();
    await settings.load();
    expect(settings.isConfigured).toBe(false);
    expect(settings.keyDescription).toBe('not set');
    expect(await settings.startDemo()).toBe(true);
    expect(settings.isDemo).toBe(true);
  });

  it('sends the settings, then the key, and empties the key field only once the key was taken', async () => {
    till.respond('getState', () => ({ ok: true, data: tillState() }));
    till.respond('updateSettings', () => ({ ok: true, data: tillState() }));
    till.respond('setApiKey', () => ({ ok: true, data: tillState() }));
    const settings = useSettingsStore();
    await settings.load();
    const draft = { baseUrl: ' http://127.0.0.1:4010 ', apiKey: 'secret-key-9999', defaultCountry: 'dk', branchId: '', tillName: 'Till 3' };
    expect(await settings.save(draft)).toBe(true);
    expect(till.callsTo('updateSettings')).toEqual([
      { baseUrl: 'http://127.0.0.1:4010', defaultCountry: 'DK', branchId: null, tillName: 'Till 3' },
    ]);
    expect(till.callsTo('setApiKey')).toEqual([{ apiKey: 'secret-key-9999' }]);
    expect(draft.apiKey).toBe('');
  });

  it('keeps everything typed when the main process refuses, with the reason beside the field', async () => {
    till.respond('getState', () => ({ ok: true, data: tillState() }));
    till.respond('updateSettings', () => ({
      ok: false,
      error: { kind: 'validation', message: 'baseUrl is invalid', fields: { baseUrl: 'The service URL must start with https://' } },
    }));
    const settings = useSettingsStore();
    await settings.load();
    const draft = { baseUrl: 'ftp://x', apiKey: 'secret-key-9999', defaultCountry: 'SA', branchId: '', tillName: 'T' };
    expect(await settings.save(draft)).toBe(false);
    expect(settings.fieldErrors.baseUrl).toContain('https://');
    expect(draft).toEqual({ baseUrl: 'ftp://x', apiKey: 'secret-key-9999', defaultCountry: 'SA', branchId: '', tillName: 'T' });
    expect(till.callsTo('setApiKey')).toHaveLength(0);
  });
});
