/**
 * Whether an IPC message came from the app's own page. In production the sender frame's
 * URL is `app://till/...`; the end-to-end harness serves the page from 127.0.0.1.
 *
 * The origin is compared as scheme + host rather than with `URL.origin`, which is the
 * string "null" for custom schemes such as `app:` and would match any of them.
 */
export function isFromOrigin(senderUrl: string | undefined, appOrigin: string): boolean {
  const sender = originOf(senderUrl);
  return sender !== null && sender === originOf(appOrigin);
}

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (!parsed.host) return null;
    return `${parsed.protocol}//${parsed.host}`.toLowerCase();
  } catch {
    return null;
  }
}
