import { extname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';

/** The renderer's own scheme and host: `app://till/index.html`. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'till';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

// Module scripts are refused by Chromium unless served with a JavaScript MIME type.
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The file under `rootDir` that an `app://till/...` URL names, or null when the URL is not
 * the app's or would leave `rootDir` (`..`, encoded slashes, NUL bytes). Paths without an
 * extension are the single-page app's routes and get `index.html`.
 */
export function resolveAppFile(requestUrl: string, rootDir: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  if (path === '/' || path === '' || extname(path) === '') path = '/index.html';
  const root = resolve(rootDir);
  const file = resolve(join(root, path));
  // The separator matters: `/app/renderer-evil` starts with `/app/renderer` too.
  return file.startsWith(root + sep) ? file : null;
}

/**
 * The `protocol.handle('app', ...)` handler: serves the built renderer from `rootDir`
 * with the Content-Security-Policy header. `fetchFile` is Electron's `net.fetch` in the
 * app (it reads inside app.asar); tests pass a file reader of their own.
 */
export function createAppProtocolHandler(options: {
  rootDir: string;
  fetchFile: (fileUrl: string) => Promise<Response>;
}): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
    const file = resolveAppFile(request.url, options.rootDir);
    if (!file) return plain(404, 'Not found');
    let found: Response;
    try {
      found = await options.fetchFile(pathToFileURL(file).href);
    } catch {
      return plain(404, 'Not found');
    }
    if (!found.ok) return plain(404, 'Not found');
    return new Response(request.method === 'HEAD' ? null : found.body, {
      status: 200,
      headers: {
        'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'Content-Security-Policy': CONTENT_SECURITY_POLICY,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-cache',
      },
    });
  };
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': CONTENT_SECURITY_POLICY },
  });
}
