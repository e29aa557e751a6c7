import { describe, expect, it } from 'vitest';
import { draftOf, patchOf, peerLines } from '../../../renderer/stores/settings/draft';
import { tillState } from '../support/fake-till';

// The settings form's draft and what a save of it sends (renderer/stores/settings/draft.ts):
// a form filled from the settings sends them back unchanged, blanks are sent as "none", and
// a field the draft leaves out is not sent at all.

describe('the settings form’s draft', () => {
  it('starts from the defaults before the till has settings, with the key field empty', () => {
    expect(draftOf(null)).toEqual({
      baseUrl: '',
      apiKey: '',
      defaultCountry: 'SA',
      branchId: '',
      tillName: '',
      allowOfflineRedemption: true,
      programId: '',
      posCallbackUrl: '',
      theme: 'system',
      currency: '',
      refreshEveryHours: 24,
      shopLedger: true,
      shopRedeemWhenSplit: true,
      shopPeers: '',
      shopLedgerPort: 47231,
    });
  });

  it('sends back, unchanged, every setting it was filled from', () => {
    const { settings } = tillState({
      programId: 'p1',
      posCallbackUrl: 'https://pos.example/outcomes',
      theme: 'dark',
      currency: 'EUR',
      shopPeers: ['10.0.0.2:47231', '10.0.0.3:47231'],
      shopLedgerPort: 47300,
      cacheRefresh: { everyHours: 12, windowFromHour: 1, windowToHour: 4 },
    });
    const patch = patchOf(draftOf(settings), settings);
    for (const [name, value] of Object.entries(patch)) {
      expect(value, name).toEqual(settings[name as keyof typeof settings]);
    }
    expect(Object.keys(patch).sort()).toEqual(
      [
        'baseUrl',
        'defaultCountry',
        'branchId',
        'tillName',
        'allowOfflineRedemption',
        'programId',
        'posCallbackUrl',
        'theme',
        'currency',
        'shopLedger',
        'shopRedeemWhenSplit',
        'shopPeers',
        'shopLedgerPort',
        'cacheRefresh',
      ].sort(),
    );
  });

  it('trims what was typed, sends blanks as none, and leaves out what the draft leaves out', () => {
    const patch = patchOf(
      { baseUrl: '  ', apiKey: 'secret', defaultCountry: ' ae ', branchId: '', tillName: ' Till 2 ', programId: ' ' },
      tillState().settings,
    );
    expect(patch).toEqual({ baseUrl: null, defaultCountry: 'AE', branchId: null, tillName: 'Till 2', programId: null });
  });

  it('changes only the hours of the refresh schedule, and only when the till has one', () => {
    const { settings } = tillState();
    const draft = { ...draftOf(settings), refreshEveryHours: 6 };
    expect(patchOf(draft, settings).cacheRefresh).toEqual({ ...settings.cacheRefresh, everyHours: 6 });
    expect(patchOf(draft, null)).not.toHaveProperty('cacheRefresh');
  });

  it('reads peer addresses one a line, or separated by commas or spaces', () => {
    expect(peerLines(' 10.0.0.2:47231\n\n10.0.0.3:47231, till-3.local:47231 ')).toEqual([
      '10.0.0.2:47231',
      '10.0.0.3:47231',
      'till-3.local:47231',
    ]);
  });
});
