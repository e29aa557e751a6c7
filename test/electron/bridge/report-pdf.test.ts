import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';

const fixtures: CoreFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.dispose();
});

describe('saveReportPdf', () => {
  it('where the shell cannot print to PDF (the browser shell), says so: the page opens the print dialog', async () => {
    const till = await createCoreFixture();
    fixtures.push(till);
    expect(await till.call('saveReportPdf', { fileName: 'loyalty-till-shift-2026-11-26.pdf' })).toEqual({
      ok: true,
      data: { available: false, saved: false },
    });
  });

  it('hands a plain file name to the shell and says whether it was saved', async () => {
    const reportPdf = vi.fn(async (name: string) =>
      name.startsWith('keep') ? ('saved' as const) : ('cancelled' as const),
    );
    const till = await createCoreFixture({ reportPdf });
    fixtures.push(till);
    expect(await till.call('saveReportPdf', { fileName: 'keep-shift.pdf' })).toEqual({
      ok: true,
      data: { available: true, saved: true },
    });
    expect(await till.call('saveReportPdf', { fileName: 'other.pdf' })).toMatchObject({ data: { saved: false } });
    // A path, another extension or a stray field is refused before the shell is asked.
    for (const payload of [
      { fileName: '../../etc/x.pdf' },
      { fileName: 'shift.exe' },
      { fileName: 'a.pdf', dir: '/' },
    ]) {
      expect(await till.call('saveReportPdf', payload), JSON.stringify(payload)).toMatchObject({
        ok: false,
        error: { kind: 'validation' },
      });
    }
    expect(reportPdf.mock.calls).toEqual([['keep-shift.pdf'], ['other.pdf']]);
  });

  it('a shell that fails is one log line and a plain failure, never a thrown error', async () => {
    const till = await createCoreFixture({ reportPdf: async () => Promise.reject(new Error('printing failed')) });
    fixtures.push(till);
    expect(await till.call('saveReportPdf', { fileName: 'shift.pdf' })).toMatchObject({
      ok: false,
      error: { kind: 'server', code: 'pdf_failed' },
    });
    expect(till.log.text()).toMatch(/could not be saved as a PDF: .*printing failed/);
  });
});
