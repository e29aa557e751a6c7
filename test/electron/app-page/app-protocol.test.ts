import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppProtocolHandler, resolveAppFile } from '../../../electron/app-page/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../../electron/app-page/content-security-policy';

// The app:// handler that serves the built renderer: the files, their types, the CSP
// header, and no way out of the renderer folder.

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
