import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportOutcome } from '../../../common/contract';
import type { FileToSave } from '../../../electron/bridge/exports';
import { MAX_EXPORT_CHARS } from '../../../electron/validation/bridge-payloads';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';

const PIN = '739164';
const CSV = 'time,code,customer\r\n2026-11-27T09:00:00Z,RW-ABC123,Layla Haddad\r\n';
const fixtures: CoreFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.dispose();
});

async function tillWithShell(options: { pin: boolean }) {
  const saved: FileToSave[] = [];
  const saveFile = vi.fn(async (file: FileToSave): Promise<ExportOutcome> => {
    saved.push(file);
    return { outcome: 'saved', downloadPath: null };
  });
  const reportPdf = vi.fn(async () => 'saved' as const);
  const till = await createCoreFixture({ saveFile, reportPdf });
  fixtures.push(till);
  if (options.pin) {
    expect(await till.call('setManagerPin', { pin: PIN })).toMatchObject({ ok: true });
    await till.call('endManagerApproval');
  }
  return { till, saved, saveFile, reportPdf };
}

const REQUIRED = {
  ok: false,
  error: { kind: 'unauthorized', code: 'manager_pin_required', action: 'exportJournal' },
};

describe('exports leave through the main process', () => {
  it('with a PIN set and no approval, neither a CSV nor the report’s PDF is written', async () => {
    const { till, saveFile, reportPdf } = await tillWithShell({ pin: true });
    expect(await till.call('saveExport', { fileName: 'loyalty-till-journal-2026-11-27.csv', csv: CSV })).toMatchObject(
      REQUIRED,
    );
    expect(await till.call('saveReportPdf', { fileName: 'loyalty-till-shift-2026-11-27.pdf' })).toMatchObject(REQUIRED);
    expect(saveFile).not.toHaveBeenCalled();
    expect(reportPdf).not.toHaveBeenCalled();
    expect(till.log.text()).toMatch(/Refused saving an export: the manager PIN was not given/);
  });

  it('once approved, the shell saves the CSV as the page made it, and the log says a file left', async () => {
    const { till, saved, reportPdf } = await tillWithShell({ pin: true });
    expect(await till.call('verifyManagerPin', { pin: PIN })).toMatchObject({ data: { accepted: true } });
    expect(await till.call('saveExport', { fileName: 'loyalty-till-journal-2026-11-27.csv', csv: CSV })).toEqual({
      ok: true,
      data: { outcome: 'saved', downloadPath: null },
    });
    expect(saved).toEqual([
      {
        fileName: 'loyalty-till-journal-2026-11-27.csv',
        bytes: Buffer.from(CSV, 'utf8'),
        contentType: 'text/csv; charset=utf-8',
      },
    ]);
    expect(await till.call('saveReportPdf', { fileName: 'loyalty-till-shift-2026-11-27.pdf' })).toMatchObject({
      ok: true,
      data: { available: true, saved: true },
    });
    expect(reportPdf).toHaveBeenCalledTimes(1);
    expect(till.log.text()).toMatch(/An export \(loyalty-till-journal-2026-11-27\.csv\) left the till: saved/);
    // The log names the file, never what it holds.
    expect(till.log.text()).not.toContain('Layla');
  });

  it('without a PIN set, exports go straight to the shell, as before', async () => {
    const { till, saveFile } = await tillWithShell({ pin: false });
    expect(await till.call('saveExport', { fileName: 'loyalty-till-shift-2026-11-27.csv', csv: CSV })).toMatchObject({
      ok: true,
    });
    expect(saveFile).toHaveBeenCalledTimes(1);
  });

  it('refuses a path, another extension, a stray field or an export too large before the shell is asked', async () => {
    const { till, saveFile } = await tillWithShell({ pin: false });
    for (const payload of [
      { fileName: '../../home/till/.bashrc.csv', csv: CSV },
      { fileName: 'journal.exe', csv: CSV },
      { fileName: 'journal.csv', csv: CSV, dir: '/' },
      { fileName: 'journal.csv', csv: 42 },
      { fileName: 'journal.csv', csv: 'x'.repeat(MAX_EXPORT_CHARS + 1) },
    ]) {
      expect(await till.call('saveExport', payload), JSON.stringify(payload).slice(0, 80)).toMatchObject({
        ok: false,
        error: { kind: 'validation' },
      });
    }
    expect(saveFile).not.toHaveBeenCalled();
  });

  it('a shell that cannot save files says so plainly', async () => {
    const till = await createCoreFixture();
    fixtures.push(till);
    expect(await till.call('saveExport', { fileName: 'journal.csv', csv: CSV })).toMatchObject({
      ok: false,
      error: { kind: 'server', code: 'export_unavailable' },
    });
  });
});
