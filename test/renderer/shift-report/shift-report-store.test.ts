import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { periodBounds, startOfToday, useShiftReportStore } from '../../../renderer/shift-report/shift-report-store';
import { useManagerPinStore } from '../../../renderer/stores/manager-pin';
import { card, customer, installFakeTill, reward, tillState, type FakeTill } from '../support/fake-till';
import { useOfflineStore } from '../../../renderer/stores/offline';

describe('the shift report store', () => {
  let till: FakeTill;

  beforeEach(async () => {
    setActivePinia(createPinia());
    till = installFakeTill();
    till.respond('getState', () => ({ ok: true, data: { ...tillState(), pinSet: true } }));
    await useSettingsStore().load();
  });
  afterEach(() => vi.restoreAllMocks());

  it('starts the shift at the start of today, on the till’s clock', () => {
    const start = startOfToday(new Date(2026, 10, 26, 14, 35, 12));
    expect(start).toEqual(new Date(2026, 10, 26, 0, 0, 0, 0));
    expect(useShiftReportStore().since).toEqual(startOfToday());
  });

  it('reads the figures from the offline core, from the chosen start', async () => {
    till.respond('redeemReward', () => ({
      ok: true,
      data: { reward: reward({ status: 'redeemed', price: 120, name: 'Cake' }), card: card(60) },
    }));
    const offline = useOfflineStore().services();
    expect(await offline.redeemReward({ code: 'RW-LAYLA001', phone: customer().phone })).toMatchObject({
      outcome: 'redeemed',
    });
    await offline.cacheWritesSettled();
    const shift = useShiftReportStore();
    await shift.load();
    expect(shift.report).toMatchObject({ redemptions: { done: 1 }, pointsDeducted: 120 });
    expect(shift.report?.byReward).toMatchObject([{ reward: 'Cake', points: 120 }]);
    // A start after the redemption: nothing done in the period.
    await shift.chooseRange({ since: new Date(Date.now() + 60_000), until: new Date(Date.now() + 120_000) });
    expect(shift.report).toMatchObject({ redemptions: { done: 0 }, pointsDeducted: 0 });
    // A period that ends before the redemption: nothing either; one around it finds it.
    await shift.chooseRange({ since: new Date(Date.now() - 3_600_000), until: new Date(Date.now() - 60_000) });
    expect(shift.report).toMatchObject({ redemptions: { done: 0 } });
    await shift.chooseRange({ until: new Date(Date.now() + 60_000) });
    expect(shift.report).toMatchObject({ redemptions: { done: 1 } });
    // A start that is no date changes nothing; an end before the start is refused, and said.
    const before = shift.since;
    await shift.chooseRange({ since: new Date('not a date') });
    expect(shift.since).toBe(before);
    await shift.chooseRange({ until: new Date(before.getTime() - 1000) });
    expect(shift.endBeforeStart).toBe(true);
    expect(shift.report).toMatchObject({ redemptions: { done: 1 } });
    // Yesterday: nothing today is in it.
    await shift.choose('yesterday');
    expect(shift.until).toEqual(startOfToday());
    expect(shift.report).toMatchObject({ redemptions: { done: 0 } });
    await shift.choose('shift');
    expect(shift.until).toBeNull();
    expect(shift.report).toMatchObject({ redemptions: { done: 1 } });
  });

  it('knows this shift and yesterday on the till’s clock', () => {
    const now = new Date(2026, 10, 27, 9, 30);
    expect(periodBounds('shift', now)).toEqual({ since: new Date(2026, 10, 27), until: null });
    expect(periodBounds('yesterday', now)).toEqual({ since: new Date(2026, 10, 26), until: new Date(2026, 10, 27) });
    // The first of the month: yesterday is the last of the one before.
    expect(periodBounds('yesterday', new Date(2026, 11, 1, 8))).toMatchObject({ since: new Date(2026, 10, 30) });
  });

  it('the CSV goes to the main process, which asks for the manager PIN; cancelled, nothing is saved', async () => {
    till.respond('saveExport', () => ({
      ok: false,
      error: { kind: 'unauthorized', code: 'manager_pin_required', message: 'A manager must approve this.' },
    }));
    const shift = useShiftReportStore();
    const csv = shift.exportCsv(String);
    // The first read of the till's database opens it, its data key attached first.
    await vi.waitFor(() => expect(useManagerPinStore().asking).toBe('exportJournal'));
    useManagerPinStore().cancel();
    expect(await csv).toBeNull();
    expect(till.callsTo('saveExport')).toEqual([
      { fileName: expect.stringMatching(/^loyalty-till-shift-\d{4}-\d{2}-\d{2}\.csv$/), csv: expect.any(String) },
    ]);
    // Where the shell serves it once (the browser shell), the page learns where.
    till.respond('saveExport', () => ({
      ok: true,
      data: { outcome: 'download', downloadPath: './__till/download/t' },
    }));
    expect(await shift.exportCsv(String)).toMatchObject({ ok: true, downloadPath: './__till/download/t' });
    // A failure to save is said, not swallowed.
    till.respond('saveExport', () => ({ ok: false, error: { kind: 'server', message: 'The disk is full.' } }));
    expect(await shift.exportCsv(String)).toEqual({ ok: false, message: 'The disk is full.' });
  });

  it('the PDF waits for the manager PIN too; refused, neither the PDF nor the print dialog', async () => {
    const print = vi.fn();
    Object.defineProperty(window, 'print', { value: print, configurable: true, writable: true });
    till.respond('saveReportPdf', () => ({
      ok: false,
      error: { kind: 'unauthorized', code: 'manager_pin_required', message: 'A manager must approve this.' },
    }));
    const saved = useShiftReportStore().savePdf();
    // The first read of the till's database opens it, its data key attached first.
    await vi.waitFor(() => expect(useManagerPinStore().asking).toBe('exportJournal'));
    useManagerPinStore().cancel();
    expect(await saved).toBe('cancelled');
    expect(print).not.toHaveBeenCalled();
  });

  it('saves a PDF through the main process, or opens the print dialog where the shell has none', async () => {
    // happy-dom has no print dialog: a stand-in records that the page asked for one.
    const print = vi.fn();
    Object.defineProperty(window, 'print', { value: print, configurable: true, writable: true });
    till.respond('saveReportPdf', () => ({ ok: true, data: { available: true, saved: true } }));
    const shift = useShiftReportStore();
    expect(await shift.savePdf()).toBe('saved');
    expect(till.callsTo('saveReportPdf')).toEqual([
      { fileName: expect.stringMatching(/^loyalty-till-shift-\d{4}-\d{2}-\d{2}\.pdf$/) },
    ]);
    expect(print).not.toHaveBeenCalled();
    till.respond('saveReportPdf', () => ({ ok: true, data: { available: false, saved: false } }));
    expect(await shift.savePdf()).toBe('print-dialog');
    expect(print).toHaveBeenCalledTimes(1);
  });
});
