import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppProtocolHandler, resolveAppFile, resolveDisplayFile } from '../../../electron/app-page/app-protocol';
import { filesNamedBy } from '../../../electron/app-page/display-files';
import { CONTENT_SECURITY_POLICY } from '../../../electron/app-page/content-security-policy';

// The app:// handler that serves the built renderer: the files, their types, the CSP
// header, and no way out of the renderer folder.

const DISPLAY_HTML = [
  '<!doctype html><html><head><title>Display</title>',
  '<script type="module" crossorigin src="./assets/display-1.js"></script>',
  '<link rel="modulepreload" crossorigin href="./assets/shared-2.js">',
  '<link rel="stylesheet" crossorigin href="./assets/display-3.css">',
  '</head><body><div id="display"></div></body></html>',
].join('\n');

let base: string;
let root: string;
let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'till-protocol-'));
  root = join(base, 'renderer');
  await mkdir(join(root, 'assets'), { recursive: true });
  await mkdir(join(base, 'renderer-evil'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><script type="module" src="./assets/app.js"></script>');
  await writeFile(join(root, 'assets', 'app.js'), 'console.log("till")');
  await writeFile(join(root, 'assets', 'app.css'), 'body{}');
  // The display's page as Vite writes it: its entry, a shared chunk preloaded, its styles.
  await writeFile(join(root, 'display.html'), DISPLAY_HTML);
  await writeFile(join(root, 'assets', 'display-1.js'), 'import "./shared-2.js"; console.log("display")');
  await writeFile(join(root, 'assets', 'shared-2.js'), 'export {}');
  await writeFile(join(root, 'assets', 'display-3.css'), '.display{}');
  await writeFile(join(base, 'secret.txt'), 'outside the renderer');
  await writeFile(join(base, 'renderer-evil', 'x.js'), 'outside too');
  // Stands in for Electron's net.fetch of file:// URLs.
  handle = createAppProtocolHandler({
    rootDir: root,
    fetchFile: async (fileUrl) => new Response(await readFile(fileURLToPath(fileUrl))),
  });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

describe('serving the renderer', () => {
  test('index.html with the Content-Security-Policy header', async () => {
    const response = await get('app://till/index.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<script type="module"');
  });

  test('the root and the single-page routes get index.html', async () => {
    for (const url of ['app://till/', 'app://till', 'app://till/customers/42', 'app://till/index.html?x=1#/rewards']) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(await response.text(), url).toContain('<!doctype html>');
    }
  });

  test('module scripts and styles with the types Chromium requires', async () => {
    const script = await get('app://till/assets/app.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log("till")');
    const style = await get('app://till/assets/app.css');
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  test('a missing file is 404, a POST is 405, HEAD has no body', async () => {
    expect((await get('app://till/assets/missing.js')).status).toBe(404);
    expect((await get('app://till/index.html', 'POST')).status).toBe(405);
    const head = await get('app://till/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  test('the CSP allows only the app itself', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)|\*|https?:/);
  });
});

describe('the path-traversal guard', () => {
  const escapes = [
    'app://till/..%2Fsecret.txt',
    'app://till/%2e%2e/secret.txt',
    'app://till/assets/..%2F..%2Fsecret.txt',
    'app://till/..%2Frenderer-evil%2Fx.js',
    'app://till/assets%5C..%5C..%5Csecret.txt',
    'app://till/index.html%00.js',
    'app://till/%E0%A4%A',
  ];

  test.each(escapes)('%s does not leave the renderer folder', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('outside');
  });

  test('other hosts and schemes are not the app', () => {
    expect(resolveAppFile('app://elsewhere/index.html', root)).toBeNull();
    expect(resolveAppFile('file:///etc/passwd', root)).toBeNull();
    expect(resolveAppFile('not a url', root)).toBeNull();
    expect(resolveAppFile('app://till/assets/app.js', root)).toBe(join(root, 'assets', 'app.js'));
  });
});

describe('the customer display’s own host, app://display', () => {
  test('serves its page, at its root and by name, and the files the page names', async () => {
    for (const url of ['app://display/', 'app://display', 'app://display/display.html']) {
      const page = await get(url);
      expect(page.status, url).toBe(200);
      expect(page.headers.get('content-security-policy'), url).toBe(CONTENT_SECURITY_POLICY);
      expect(await page.text(), url).toBe(DISPLAY_HTML);
    }
    for (const file of ['assets/display-1.js', 'assets/shared-2.js', 'assets/display-3.css']) {
      expect((await get(`app://display/${file}`)).status, file).toBe(200);
    }
  });

  test('serves nothing else of the renderer: not the till’s page, scripts or styles', async () => {
    for (const url of [
      'app://display/index.html',
      'app://display/assets/app.js',
      'app://display/assets/app.css',
      'app://display/assets/..%2F..%2Fsecret.txt',
      'app://display/assets%2Fapp.js',
      // No routes: a path without an extension is nothing, not the page again.
      'app://display/customers/42',
    ]) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).not.toMatch(/till|outside/);
    }
  });

  test('nor does the till’s host serve the display’s page', async () => {
    expect((await get('app://till/display.html')).status).toBe(404);
    expect(resolveAppFile('app://till/display.html', root)).toBeNull();
  });

  test('a handler for one host answers that host alone (each Electron session gets its own)', async () => {
    const read = async (fileUrl: string) => new Response(await readFile(fileURLToPath(fileUrl)));
    const tillOnly = createAppProtocolHandler({ rootDir: root, fetchFile: read, hosts: ['till'] });
    const displayOnly = createAppProtocolHandler({ rootDir: root, fetchFile: read, hosts: ['display'] });
    expect((await tillOnly(new Request('app://till/index.html'))).status).toBe(200);
    expect((await tillOnly(new Request('app://display/display.html'))).status).toBe(404);
    expect((await displayOnly(new Request('app://display/display.html'))).status).toBe(200);
    expect((await displayOnly(new Request('app://till/index.html'))).status).toBe(404);
    expect((await displayOnly(new Request('app://till/assets/app.js'))).status).toBe(404);
  });

  test('the files a page names: its sources and links beside it, nothing else', () => {
    expect([...filesNamedBy(DISPLAY_HTML)].sort()).toEqual([
      '/assets/display-1.js',
      '/assets/display-3.css',
      '/assets/shared-2.js',
    ]);
    expect(filesNamedBy('<script src="https://evil.example/x.js"></script><img src="/abs.png">').size).toBe(0);
    expect([...filesNamedBy('<link href="./assets/../../escape.css">')]).toEqual(['/escape.css']);
    expect(resolveDisplayFile('app://display/escape.css', root, new Set(['/escape.css']))).toBe(
      join(root, 'escape.css'),
    );
    expect(resolveDisplayFile('app://display/../secret.txt', root, new Set(['/../secret.txt']))).toBeNull();
  });
});
