/**
 * The renderer's Content-Security-Policy, and its only source: sent as a response header
 * by the `app://` protocol handler (a header, unlike a <meta> tag, also covers the first
 * bytes of the page). index.html carries no copy; the end-to-end tests load the page
 * through the same handler, so this is the policy they run under.
 *
 * The page needs nothing beyond its own bundle: it reaches the network only through the
 * bridge, so `connect-src` allows the app itself and nothing else. No inline scripts, no
 * eval (Vite's production build needs neither). Inline styles are not allowed either:
 * Vue sets styles through the CSSOM, which the policy does not restrict.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
