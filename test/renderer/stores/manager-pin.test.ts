import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { useManagerPinStore } from '../../../renderer/stores/manager-pin';
import { useOfflineStore } from '../../../renderer/stores/offline';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { GUARDED_ACTIONS } from '../../../common/guarded-actions';
import { installFakeTill, tillState, type FakeTill } from '../support/fake-till';

const flush = () => new Promise((done) => setTimeout(done, 0));

describe('the manager PIN in the page', () => {
  let till: FakeTill;

  async function withPin(pinSet: boolean) {
    till.respond('getState', () => ({ ok: true, data: { ...tillState(), pinSet } }));
    await useSettingsStore().load();
    return useManagerPinStore();
  }

  beforeEach(() => {
    setActivePinia(createPinia());
    till = installFakeTill();
    till.respond('verifyManagerPin', (payload) => ({
      ok: true,
      data: payload.pin === '739164' ? { accepted: true, waitSeconds: 0 } : { accepted: false, waitSeconds: 2 },
    }));
  });

  it('asks nothing while no PIN is set', async () => {
    const pin = await withPin(false);
    expect(await pin.ask('openSettings')).toBe(true);
    expect(pin.asking).toBeNull();
    expect(till.callsTo('verifyManagerPin')).toEqual([]);
  });

  it('asks the main process; a wrong PIN says how long to wait, the right one approves', async () => {
    const pin = await withPin(true);
    const approved = pin.ask('openSettings');
    expect(pin.asking).toBe('openSettings');
    expect(await pin.submit('000000')).toBe(false);
    expect(pin).toMatchObject({ wrong: true, waitSeconds: 2, asking: 'openSettings' });
    // The main process would not hear a try during the wait: the page waits it out too.
    await expect.poll(() => pin.waitSeconds, { timeout: 3000 }).toBe(0);
    expect(await pin.submit('739164')).toBe(true);
    expect(await approved).toBe(true);
    expect(pin.asking).toBeNull();
    expect(till.callsTo('verifyManagerPin')).toEqual([{ pin: '000000' }, { pin: '739164' }]);
    // Nothing of it is kept in the page.
    expect(JSON.stringify({ ...localStorage })).not.toContain('739164');
    expect(JSON.stringify(pin.$state)).not.toContain('739164');
  });

  it('acknowledging a conflict and exporting the journal wait for the PIN; cancelled, nothing happens', async () => {
    await withPin(true);
    const pin = useManagerPinStore();
    const offline = useOfflineStore();
    const acknowledged = offline.acknowledge(1);
    await flush();
    expect(pin.asking).toBe('acknowledge');
    pin.cancel();
    expect(await acknowledged).toBe(false);
    // The export is the main process's to refuse: it names the action, and the PIN is asked for it.
    let approvedNow = false;
    till.respond('saveExport', () =>
      approvedNow
        ? { ok: true, data: { outcome: 'saved', downloadPath: null } }
        : {
            ok: false,
            error: {
              kind: 'unauthorized',
              code: 'manager_pin_required',
              message: 'A manager must approve this.',
              action: 'exportJournal',
            },
          },
    );
    till.respond('verifyManagerPin', () => {
      approvedNow = true;
      return { ok: true, data: { accepted: true, waitSeconds: 0 } };
    });
    const cancelled = offline.exportJournal();
    for (let tick = 0; tick < 20 && !pin.asking; tick++) await flush();
    expect(pin.asking).toBe('exportJournal');
    pin.cancel();
    expect(await cancelled).toBeNull();
    const exported = offline.exportJournal();
    for (let tick = 0; tick < 20 && !pin.asking; tick++) await flush();
    await pin.submit('739164');
    expect(await exported).toMatchObject({ ok: true, fileName: expect.stringMatching(/^loyalty-till-journal-/) });
    // The page hands the CSV over; the main process writes it.
    const sent = till.callsTo('saveExport');
    expect(sent).toHaveLength(3);
    expect(sent.at(-1)).toEqual({
      fileName: expect.stringMatching(/^loyalty-till-journal-\d{4}-\d{2}-\d{2}\.csv$/),
      csv: expect.stringMatching(/^time,code,customer/),
    });
  });

  it('a call the main process refuses for want of approval is made again once the PIN is given', async () => {
    const settings = useSettingsStore();
    const pin = await withPin(true);
    let approvedNow = false;
    till.respond('clearApiKey', () =>
      approvedNow
        ? { ok: true, data: { ...tillState(), key: { set: false, lastFour: null, protection: 'os' }, pinSet: true } }
        : {
            ok: false,
            error: { kind: 'unauthorized', code: 'manager_pin_required', message: 'A manager must approve this.' },
          },
    );
    till.respond('verifyManagerPin', () => {
      approvedNow = true;
      return { ok: true, data: { accepted: true, waitSeconds: 0 } };
    });
    const cleared = settings.clearKey(pin.withApproval);
    await flush();
    expect(pin.asking).toBe('changeKey');
    await pin.submit('739164');
    expect(await cleared).toBe(true);
    expect(till.callsTo('clearApiKey')).toHaveLength(2);
    expect(settings.state?.key.set).toBe(false);
  });

  it('asks for the guarded action the main process names, from the one list', async () => {
    const settings = useSettingsStore();
    const pin = await withPin(true);
    till.respond('updateSettings', () => ({
      ok: false,
      error: {
        kind: 'unauthorized',
        code: 'manager_pin_required',
        message: 'A manager must approve this.',
        action: 'changeShopLedger',
      },
    }));
    const saved = settings.save({ ...settings.draftFromState(), shopLedger: false }, pin.withApproval);
    await flush();
    expect(pin.asking).toBe('changeShopLedger');
    expect(Object.keys(GUARDED_ACTIONS)).toContain(pin.asking);
    pin.cancel();
    expect(await saved).toBe(false);
    expect(till.callsTo('updateSettings')).toHaveLength(1);
  });

  it('reuses an approval for its minutes, names what it approves, and asks again once the main process refuses', async () => {
    const pin = await withPin(true);
    const offline = useOfflineStore();
    const first = offline.acknowledge(1, 'Redeem Cake (RW-1), for Layla');
    await flush();
    expect(pin).toMatchObject({ asking: 'acknowledge', subject: 'Redeem Cake (RW-1), for Layla' });
    await pin.submit('739164');
    await first;
    expect(pin.subject).toBeNull();
    // A second acknowledge a few seconds later: no dialog, no second PIN.
    const second = offline.acknowledge(2, 'Redeem Tea (RW-2), for Omar');
    await flush();
    expect(pin.asking).toBeNull();
    await second;
    expect(till.callsTo('verifyManagerPin')).toHaveLength(1);
    // The main process ended it (a restart): the page forgets its approval and asks.
    till.respond('clearApiKey', () => ({
      ok: false,
      error: { kind: 'unauthorized', code: 'manager_pin_required', message: 'A manager must approve this.' },
    }));
    void useSettingsStore().clearKey(pin.withApproval);
    await flush();
    expect(pin.asking).toBe('changeKey');
    pin.cancel();
    // Past its minutes, it is asked again.
    const later = Date.now() + 5 * 60_000 + 1000;
    const realNow = Date.now;
    Date.now = () => later;
    try {
      await pin.submit('739164');
      void pin.ask('openSettings');
      expect(pin.asking).toBe('openSettings');
    } finally {
      Date.now = realNow;
    }
  });

  it('Enter during the wait is answered: nothing sent, the wait said', async () => {
    const pin = await withPin(true);
    void pin.ask('openSettings');
    await pin.submit('000000');
    expect(pin.waitSeconds).toBe(2);
    expect(await pin.submit('111111')).toBe(false);
    expect(pin.tooSoon).toBe(true);
    expect(till.callsTo('verifyManagerPin')).toEqual([{ pin: '000000' }]);
    pin.cancel();
  });
});
