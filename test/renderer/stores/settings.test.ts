import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { installFakeTill, tillState, type FakeTill } from '../support/fake-till';

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
    till.respond('getState', () => ({
      ok: true,
      data: { ...blank, key: { set: false, lastFour: null, protection: 'os' }, mode: 'unconfigured' },
    }));
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
    const draft = {
      baseUrl: ' http://127.0.0.1:4010 ',
      apiKey: 'secret-key-9999',
      defaultCountry: 'dk',
      branchId: '',
      tillName: 'Till 3',
    };
    expect(await settings.save(draft)).toBe(true);
    expect(till.callsTo('updateSettings')).toEqual([
      { baseUrl: 'http://127.0.0.1:4010', defaultCountry: 'DK', branchId: null, tillName: 'Till 3' },
    ]);
    expect(till.callsTo('setApiKey')).toEqual([{ apiKey: 'secret-key-9999' }]);
    expect(draft.apiKey).toBe('');
  });

  it('edits the shop ledger in the draft and sends the addresses as a list', async () => {
    till.respond('getState', () => ({
      ok: true,
      data: tillState({
        shopLedger: true,
        shopRedeemWhenSplit: true,
        shopPeers: ['10.0.0.2:47231'],
        shopLedgerPort: 47231,
      }),
    }));
    till.respond('updateSettings', () => ({ ok: true, data: tillState() }));
    const settings = useSettingsStore();
    await settings.load();
    const draft = settings.draftFromState();
    expect(draft).toMatchObject({
      shopLedger: true,
      shopRedeemWhenSplit: true,
      shopPeers: '10.0.0.2:47231',
      shopLedgerPort: 47231,
    });
    draft.shopRedeemWhenSplit = false;
    draft.shopPeers = ' 10.0.0.2:47231\n\n till-3.local:47231 , [fd00::3]:47231 ';
    draft.shopLedgerPort = 50000;
    expect(await settings.save(draft)).toBe(true);
    expect(till.callsTo('updateSettings').at(-1)).toMatchObject({
      shopLedger: true,
      shopRedeemWhenSplit: false,
      shopPeers: ['10.0.0.2:47231', 'till-3.local:47231', '[fd00::3]:47231'],
      shopLedgerPort: 50000,
    });
  });

  it('keeps everything typed when the main process refuses, with the reason beside the field', async () => {
    till.respond('getState', () => ({ ok: true, data: tillState() }));
    till.respond('updateSettings', () => ({
      ok: false,
      error: {
        kind: 'validation',
        message: 'baseUrl is invalid',
        fields: { baseUrl: 'The service URL must start with https://' },
      },
    }));
    const settings = useSettingsStore();
    await settings.load();
    const draft = { baseUrl: 'ftp://x', apiKey: 'secret-key-9999', defaultCountry: 'SA', branchId: '', tillName: 'T' };
    expect(await settings.save(draft)).toBe(false);
    expect(settings.fieldErrors.baseUrl).toContain('https://');
    expect(draft).toEqual({
      baseUrl: 'ftp://x',
      apiKey: 'secret-key-9999',
      defaultCountry: 'SA',
      branchId: '',
      tillName: 'T',
    });
    expect(till.callsTo('setApiKey')).toHaveLength(0);
  });
});

describe("settings store: this till's programme", () => {
  let till: FakeTill;

  beforeEach(() => {
    setActivePinia(createPinia());
    till = installFakeTill();
  });

  it('reads the programme from the state, edits it in the draft, and sends an emptied choice as null', async () => {
    const coffeeClub = '6f1c2d9e-3b4a-4c5d-8e7f-1a2b3c4d5e01';
    till.respond('getState', () => ({ ok: true, data: tillState({ programId: coffeeClub }) }));
    till.respond('updateSettings', (patch) => ({ ok: true, data: tillState({ programId: patch.programId ?? null }) }));
    const settings = useSettingsStore();
    await settings.load();
    expect(settings.programId).toBe(coffeeClub);
    const draft = settings.draftFromState();
    expect(draft.programId).toBe(coffeeClub);

    draft.programId = '';
    expect(await settings.save(draft)).toBe(true);
    expect(till.callsTo('updateSettings').at(-1)).toMatchObject({ programId: null });
    expect(settings.programId).toBeNull();
  });

  it('keeps the chosen programme in the draft when the main process refuses it', async () => {
    till.respond('getState', () => ({ ok: true, data: tillState() }));
    till.respond('updateSettings', () => ({
      ok: false,
      error: {
        kind: 'validation',
        message: 'Please check: programId.',
        fields: { programId: 'The programme id must be a UUID.' },
      },
    }));
    const settings = useSettingsStore();
    await settings.load();
    const draft = { ...settings.draftFromState(), programId: 'not-a-programme' };
    expect(await settings.save(draft)).toBe(false);
    expect(settings.fieldErrors.programId).toContain('UUID');
    expect(draft.programId).toBe('not-a-programme');
    expect(settings.programId).toBeNull();
  });
});
