/** An export that left: its file name, its rows, and where the browser shell serves it (null in Electron). */
export interface SavedExport {
  ok: true;
  fileName: string;
  /** Every row but the header. */
  entries: number;
  /** Relative to the page: opened once, the browser downloads it (the browser shell); null when already saved. */
  downloadPath: string | null;
}

/** What a person sees when an export could not be saved. */
export interface FailedExport {
  ok: false;
  message: string;
}

/**
 * What the screen says after an export, and the download it opens where the browser shell
 * serves the file once (a link to it, clicked: the page holds no file of its own to offer).
 * Null when the manager or the save dialog cancelled: nothing to say.
 */
export function finishExport(
  done: SavedExport | FailedExport | null,
  said: (saved: SavedExport) => string,
): string | null {
  if (done === null) return null;
  if (!done.ok) return done.message;
  if (done.downloadPath) {
    const link = document.createElement('a');
    link.href = done.downloadPath;
    link.download = done.fileName;
    document.body.append(link);
    link.click();
    link.remove();
  }
  return said(done);
}
