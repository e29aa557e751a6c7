import { extname, join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DISPLAY_PAGE_FILE } from '../../common/display-model';
import { CONTENT_SECURITY_POLICY } from './content-security-policy';
import { filesNamedBy } from './display-files';

/** The renderer's own scheme and host: `app://till/index.html`. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'till';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/**
 * The customer display's own host, `app://display/display.html`: another origin than the
 * till's, so its page can open neither the till's IndexedDB nor its files (docs/security.md).
 */
export const DISPLAY_HOST = 'display';
export const DISPLAY_ORIGIN = `${APP_SCHEME}://${DISPLAY_HOST}`;
export type AppHost = typeof APP_HOST | typeof DISPLAY_HOST;

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
 * extension are the single-page app's routes and get `index.html`. The customer display's
 * page is not the till's: it lives on its own host (`resolveDisplayFile`).
 */
export function resolveAppFile(requestUrl: string, rootDir: string): string | null {
  let path = appPath(requestUrl, APP_HOST);
  if (path === null || path === DISPLAY_PAGE_FILE) return null;
  if (path === '/' || path === '' || extname(path) === '') path = '/index.html';
  return fileUnder(rootDir, path);
}

/**
 * The file under `rootDir` that an `app://display/...` URL names: the display's page (at the
 * root, and by its name) or one of the files it names (`displayFiles`, from `filesNamedBy`);
 * null for anything else of the renderer. The display has no routes of its own.
 */
export function resolveDisplayFile(
  requestUrl: string,
  rootDir: string,
  displayFiles: ReadonlySet<string>,
): string | null {
  let path = appPath(requestUrl, DISPLAY_HOST);
  if (path === null) return null;
  if (path === '/' || path === '') path = DISPLAY_PAGE_FILE;
  if (path !== DISPLAY_PAGE_FILE && !displayFiles.has(path)) return null;
  return fileUnder(rootDir, path);
}

/** The decoded path of an app:// URL of `host`, or null (another host or scheme, NUL, backslashes). */
function appPath(requestUrl: string, host: AppHost): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== host) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  return path.includes('\0') || path.includes('\\') ? null : path;
}

function fileUnder(rootDir: string, path: string): string | null {
  const root = resolve(rootDir);
  const file = resolve(join(root, path));
  // The separator matters: `/app/renderer-evil` starts with `/app/renderer` too.
  return file.startsWith(root + sep) ? file : null;
}

/**
 * The `protocol.handle('app', ...)` handler: serves the built renderer from `rootDir`
 * with the Content-Security-Policy header, the till's page on `app://till` and the customer
 * display's on `app://display`, each host only the hosts given (Electron gives each session
 * its own: the display's partition serves the display alone). `fetchFile` is Electron's
 * `net.fetch` in the app (it reads inside app.asar); tests pass a file reader of their own.
 */
export function createAppProtocolHandler(options: {
  rootDir: string;
  fetchFile: (fileUrl: string) => Promise<Response>;
  /** The hosts this handler answers; both by default (the browser shell, tests). */
  hosts?: readonly AppHost[];
}): (request: Request) => Promise<Response> {
  const hosts = new Set<string>(options.hosts ?? [APP_HOST, DISPLAY_HOST]);
  // What the display's page names, read from it once (the renderer does not change under a running app).
  let displayFiles: Promise<ReadonlySet<string>> | null = null;
  const namedByDisplay = (): Promise<ReadonlySet<string>> =>
    (displayFiles ??= readDisplayFiles(options).catch(() => {
      displayFiles = null;
      return new Set<string>();
    }));
  const fileOf = async (url: string): Promise<string | null> => {
    const host = hostOf(url);
    if (host === null || !hosts.has(host)) return null;
    if (host === APP_HOST) return resolveAppFile(url, options.rootDir);
    return resolveDisplayFile(url, options.rootDir, await namedByDisplay());
  };
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
    const file = await fileOf(request.url);
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

async function readDisplayFiles(options: {
  rootDir: string;
  fetchFile: (fileUrl: string) => Promise<Response>;
}): Promise<ReadonlySet<string>> {
  const page = await options.fetchFile(pathToFileURL(join(resolve(options.rootDir), DISPLAY_PAGE_FILE)).href);
  if (!page.ok) throw new Error('The display page could not be read.');
  return filesNamedBy(await page.text());
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` ? parsed.host : null;
  } catch {
    return null;
  }
}

function plain(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': CONTENT_SECURITY_POLICY },
  });
}
