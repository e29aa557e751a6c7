import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishExport } from '../../../renderer/lib/export-outcome';

afterEach(() => vi.restoreAllMocks());

describe('what the screen does after an export', () => {
  const said = ({ fileName, entries }: { fileName: string; entries: number }) => `${entries} rows in ${fileName}`;

  it('says nothing when cancelled, and the main process’s words when it failed', () => {
    expect(finishExport(null, said)).toBeNull();
    expect(finishExport({ ok: false, message: 'The disk is full.' }, said)).toBe('The disk is full.');
  });

  it('opens the download the browser shell serves once; in Electron the file is already saved', () => {
    const clicked: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
    });
    const file = { ok: true as const, fileName: 'loyalty-till-journal-2026-11-27.csv', entries: 3 };
    expect(finishExport({ ...file, downloadPath: null }, said)).toBe('3 rows in loyalty-till-journal-2026-11-27.csv');
    expect(clicked).toEqual([]);
    expect(finishExport({ ...file, downloadPath: './__till/download/abc' }, said)).toBe(
      '3 rows in loyalty-till-journal-2026-11-27.csv',
    );
    expect(clicked).toEqual([{ href: './__till/download/abc', download: 'loyalty-till-journal-2026-11-27.csv' }]);
    // No link is left behind in the page.
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
  });
});
