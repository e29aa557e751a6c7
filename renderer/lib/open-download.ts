/**
 * Opens a download the browser shell serves once (an approved export): a link to it,
 * clicked, so the browser saves it as a file. The page holds no file of its own to offer.
 */
export function openDownload(path: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = path;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}
