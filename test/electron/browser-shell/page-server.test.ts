import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { WebSocket } from 'ws';
import { CHANNELS, PAGE_PUSH_CHANNELS } from '../../../common/contract';
import { DISPLAY_CHANNELS, DISPLAY_PUSH_CHANNEL } from '../../../common/display-model';
import { createAppProtocolHandler } from '../../../electron/app-page/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../../electron/app-page/content-security-policy';
import { newAccessSecret } from '../../../electron/browser-shell/access-guard';
import { startPageServer, withBridgeScript, type PageServer } from '../../../electron/browser-shell/page-server';
import { MAX_MESSAGE_BYTES } from '../../../electron/browser-shell/bridge-socket';
import { MAX_EXPORT_CHARS } from '../../../electron/validation/bridge-payloads';
import { createAppCore } from '../../../electron/bridge/app-core';
import { createCapturedLog } from '../../support/captured-log';
import { IDLE_DISPLAY_MODEL } from '../../support/display-models';
import { rawGet, rawRequest } from '../../support/raw-get';
import { createTestCipher } from '../../support/test-cipher';

const INDEX = '<!doctype html><html><head><title>Till</title></head><body><div id="app"></div></body></html>';
const BRIDGE_SCRIPT = '/* the page bridge */';
const DISPLAY =
  '<!doctype html><html><head><title>Display</title><script type="module" src="./assets/display.js"></script></head><body><div id="display"></div></body></html>';
const DISPLAY_SCRIPT = '/* the display bridge */';

const get = rawGet;

function connect(url: string, origin?: string): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin ? { origin } : {});
    socket.on('open', () => resolve(socket));
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', reject);
  });
}

/** The next message the socket receives. */
const nextMessage = (socket: WebSocket) =>
  new Promise<Record<string, unknown>>((resolve) =>
    socket.once('message', (data) => resolve(JSON.parse(String(data)))),
  );

describe('the browser shell’s page server', () => {
  let dir: string;
  let server: PageServer;
  let origin: string;
  let socketUrl: string;
  const log = createCapturedLog();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'till-page-server-'));
    await mkdir(join(dir, 'renderer', 'assets'), { recursive: true });
    await writeFile(join(dir, 'renderer', 'index.html'), INDEX);
    await writeFile(join(dir, 'renderer', 'display.html'), DISPLAY);
    await writeFile(join(dir, 'renderer', 'assets', 'app.js'), 'export {};');
    await writeFile(join(dir, 'renderer', 'assets', 'display.js'), 'export const display = 1;');
    server = await startPageServer({
      secret: newAccessSecret(),
      bridgeScript: BRIDGE_SCRIPT,
      displayScript: DISPLAY_SCRIPT,
      appProtocol: createAppProtocolHandler({
        rootDir: join(dir, 'renderer'),
        fetchFile: async (fileUrl) => new Response(await readFile(fileURLToPath(fileUrl))),
      }),
      createCore: (appOrigin, { saveFile, displayOrigin }) =>
        createAppCore({
          userDataDir: join(dir, 'user-data'),
          cipher: createTestCipher(),
          appOrigin,
          displayOrigin,
          log,
          saveFile,
        }),
    });
    origin = server.guard.appOrigin;
    socketUrl = `${server.address.replace('http:', 'ws:')}__till/socket`;
  });
  afterAll(async () => {
    await server?.close();
    await server?.core.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  test('listens on 127.0.0.1 at the address it gives, with a secret in the path', () => {
    expect(server.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/$/);
  });

  test('serves the renderer through the app:// handler, with its CSP, and the bridge script before the app', async () => {
    const page = await get(server.address);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).toBe(withBridgeScript(INDEX));
    expect(page.body).toContain('<script src="./__till/bridge.js"></script>\n</head>');
    const script = await get(`${server.address}__till/bridge.js`);
    expect(script).toMatchObject({ status: 200, body: BRIDGE_SCRIPT });
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const asset = await get(`${server.address}assets/app.js`);
    expect(asset).toMatchObject({ status: 200, body: 'export {};' });
    expect((await get(`${server.address}assets/missing.js`)).status).toBe(404);
    expect((await get(`${server.address}..%2f..%2fpackage.json`)).status).toBe(404);
  });

  test('refuses without the secret, with another Host or another Origin, in one line of text', async () => {
    const port = new URL(origin).port;
    for (const refused of [
      await get(`${origin}/`),
      await get(`${origin}/assets/app.js`),
      await get(server.address, { host: `rebound.example:${port}` }),
      await get(server.address, { origin: 'http://evil.example' }),
    ]) {
      expect(refused.status).toBe(403);
      expect(refused.body).not.toMatch(/<|export/);
    }
    const local = await get(server.address, { host: `localhost:${port}` });
    expect(local.status).toBe(307);
    expect(local.headers.location).toBe(server.address);
  });

  test('refuses a WebSocket from another origin, without one, or without the secret', async () => {
    expect(await connect(socketUrl, 'http://evil.example')).toBe(403);
    expect(await connect(socketUrl)).toBe(403);
    expect(await connect(`${origin.replace('http:', 'ws:')}/__till/socket`, origin)).toBe(403);
    expect(await connect(`${server.address.replace('http:', 'ws:')}elsewhere`, origin)).toBe(403);
  });

  test('answers bridge calls with the handler table: payloads validated, unknown channels refused', async () => {
    const socket = (await connect(socketUrl, origin)) as WebSocket;
    try {
      socket.send(JSON.stringify({ id: 1, channel: CHANNELS.getState }));
      expect(await nextMessage(socket)).toMatchObject({ id: 1, result: { ok: true, data: { mode: 'unconfigured' } } });
      socket.send(JSON.stringify({ id: 2, channel: CHANNELS.getCustomer, payload: { id: 'x', more: 1 } }));
      expect(await nextMessage(socket)).toMatchObject({ id: 2, result: { ok: false, error: { kind: 'validation' } } });
      socket.send(JSON.stringify({ id: 3, channel: 'till:shell:exec' }));
      expect(await nextMessage(socket)).toEqual({ id: 3, refused: 'No such channel.' });
    } finally {
      socket.close();
    }
  });

  test('closes a socket that sends something other than a request', async () => {
    const socket = (await connect(socketUrl, origin)) as WebSocket;
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.send('{"channel": 5}');
    expect(await closed).toBe(1008);
  });

  test('closes a socket whose message is over the limit with 1009 and one log line, never an uncaught error', async () => {
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const socket = (await connect(socketUrl, origin)) as WebSocket;
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      socket.send(JSON.stringify({ id: 1, channel: CHANNELS.logError, payload: 'x'.repeat(MAX_MESSAGE_BYTES) }));
      expect(await closed).toBe(1009);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught).toEqual([]);
      expect(log.text().match(/Closed a bridge socket: RangeError: Max payload size exceeded/g)).toHaveLength(1);
      // The shell goes on serving other pages.
      const next = (await connect(socketUrl, origin)) as WebSocket;
      next.send(JSON.stringify({ id: 2, channel: CHANNELS.getState }));
      expect(await nextMessage(next)).toMatchObject({ id: 2, result: { ok: true } });
      next.close();
    } finally {
      process.off('uncaughtException', record);
    }
  });

  test('answers 405 to TRACE and every method but GET and HEAD, with or without the secret’s path', async () => {
    for (const method of ['TRACE', 'PUT', 'DELETE', 'PROPFIND', 'POST', 'OPTIONS']) {
      for (const path of ['', 'assets/app.js', '__till/bridge.js']) {
        const answer = await rawRequest(method, `${server.address}${path}`);
        expect(answer.status, `${method} /${path}`).toBe(405);
        expect(answer.headers.allow).toBe('GET, HEAD');
        expect(answer.body).not.toMatch(/<|export/);
      }
    }
    expect((await rawRequest('HEAD', `${server.address}assets/app.js`)).status).toBe(200);
  });

  test('serves an approved export once, under the secret, as a download; refused without the PIN', async () => {
    const csv = 'time,code,customer\r\n2026-11-27,RW-ABC123,Layla\r\n';
    const socket = (await connect(socketUrl, origin)) as WebSocket;
    const call = async (id: number, channel: string, payload?: unknown) => {
      socket.send(JSON.stringify({ id, channel, payload }));
      return (await nextMessage(socket)).result as { ok: boolean; data?: { downloadPath: string | null } };
    };
    try {
      const answer = await call(1, CHANNELS.saveExport, { fileName: 'loyalty-till-journal-2026-11-27.csv', csv });
      expect(answer).toMatchObject({ ok: true, data: { outcome: 'download' } });
      const path = answer.data!.downloadPath!;
      expect(path).toMatch(/^\.\/__till\/download\/[A-Za-z0-9_-]{22}$/);
      const url = new URL(path, server.address).href;
      // Not without the secret, nor by a HEAD that would use it up.
      expect((await get(url.replace(server.address, `${origin}/`))).status).toBe(403);
      expect((await rawRequest('HEAD', url)).status).toBe(405);
      const download = await get(url);
      expect(download).toMatchObject({ status: 200, body: csv });
      expect(download.headers['content-disposition']).toBe(
        'attachment; filename="loyalty-till-journal-2026-11-27.csv"',
      );
      expect(download.headers['cache-control']).toBe('no-store');
      expect((await get(url)).status).toBe(404);

      // With a manager PIN set, nothing is offered without it.
      expect(await call(2, CHANNELS.setManagerPin, { pin: '739164' })).toMatchObject({ ok: true });
      await call(3, CHANNELS.endManagerApproval);
      expect(await call(4, CHANNELS.saveExport, { fileName: 'journal.csv', csv })).toMatchObject({
        ok: false,
        error: { code: 'manager_pin_required' },
      });
      expect(await call(5, CHANNELS.verifyManagerPin, { pin: '739164' })).toMatchObject({ data: { accepted: true } });
      expect(await call(6, CHANNELS.setManagerPin, { pin: null })).toMatchObject({ ok: true });
    } finally {
      socket.close();
    }
  });

  test('serves the support file as what it is: a .zip, application/zip', async () => {
    const socket = (await connect(socketUrl, origin)) as WebSocket;
    try {
      socket.send(JSON.stringify({ id: 1, channel: CHANNELS.saveSupportFile, payload: { userAgent: 'test' } }));
      const answer = (await nextMessage(socket)).result as {
        ok: boolean;
        data?: { downloadPath: string; fileName: string };
      };
      expect(answer).toMatchObject({ ok: true, data: { outcome: 'download' } });
      const { downloadPath, fileName } = answer.data!;
      expect(fileName).toMatch(/^loyalty-till-support-LT-[0-9A-Z]{4}-[0-9A-Z]{4}-\d{4}-\d{2}-\d{2}\.zip$/);
      const download = await get(new URL(downloadPath, server.address).href);
      expect(download.status).toBe(200);
      expect(download.headers['content-type']).toBe('application/zip');
      expect(download.headers['content-disposition']).toBe(`attachment; filename="${fileName}"`);
      // A zip's local file header, not a text.
      expect(download.body.startsWith('PK\u0003\u0004')).toBe(true);
    } finally {
      socket.close();
    }
  });

  test('the largest export fits in one bridge message', () => {
    // Three bytes a character at most for the page's text, plus JSON's quotes and escapes.
    expect(MAX_EXPORT_CHARS * 3 + 64 * 1024).toBeLessThan(MAX_MESSAGE_BYTES);
  });

  test('pushes links to the newest page; an older page closing does not silence it', async () => {
    const older = (await connect(socketUrl, origin)) as WebSocket;
    const newer = (await connect(socketUrl, origin)) as WebSocket;
    try {
      older.close();
      await new Promise((resolve) => older.on('close', resolve));
      // As the page does once it listens: from then on links are pushed, not kept.
      newer.send(JSON.stringify({ id: 7, channel: CHANNELS.takeLinkMessages }));
      expect(await nextMessage(newer)).toMatchObject({ id: 7, result: { ok: true, data: [] } });
      const pushed = nextMessage(newer);
      expect(server.core.links.receive('loyalty-till://find?q=Layla', 'command-line')).toMatchObject({
        accepted: true,
      });
      expect(await pushed).toMatchObject({ push: PAGE_PUSH_CHANNELS.link, payload: { kind: 'request' } });
    } finally {
      newer.close();
    }
  });

  // ---- the customer display (docs/screens.md#the-customer-display) ----
  test('serves the customer display on a listener of its own: its own port, origin and secret', async () => {
    const display = new URL(server.displayAddress);
    expect(server.displayAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/display$/);
    expect(display.origin).toBe(server.display.origin);
    expect(display.origin).not.toBe(origin);
    // Its secret is not the till's: the display's address opens nothing of the till's.
    expect(display.pathname.split('/')[1]).not.toBe(new URL(server.address).pathname.split('/')[1]);
    const page = await get(server.displayAddress);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(page.body).toContain('<script src="./__till/display.js"></script>');
    expect(page.body).not.toContain('bridge.js');
    const base = server.displayAddress.replace(/display$/, '');
    expect((await get(`${base}__till/display.js`)).body).toBe(DISPLAY_SCRIPT);
    // By its file's name and at its root too, with the display's bridge.
    expect((await get(`${base}display.html`)).body).toContain('./__till/display.js');
    expect((await get(base)).body).toContain('./__till/display.js');
    // The files its page names, and none of the till's.
    expect(await get(`${base}assets/display.js`)).toMatchObject({ status: 200, body: 'export const display = 1;' });
    for (const path of ['assets/app.js', 'index.html', '__till/bridge.js', '__till/download/x'])
      expect((await get(`${base}${path}`)).status, path).toBe(404);
    // Without its secret, with the till's, with another Host or Origin: refused.
    expect((await get(`${display.origin}/display`)).status).toBe(403);
    expect((await get(`${display.origin}${new URL(server.address).pathname}display`)).status).toBe(403);
    expect((await get(server.displayAddress, { origin })).status).toBe(403);
    expect((await get(server.displayAddress, { host: `rebound.example:${display.port}` })).status).toBe(403);
  });

  test('the till’s listener serves the display nothing, and refuses the display’s origin', async () => {
    for (const path of ['display', 'display.html']) expect((await get(`${server.address}${path}`)).status).toBe(404);
    expect((await get(`${server.address}assets/app.js`, { origin: server.display.origin })).status).toBe(403);
    expect((await get(server.address, { origin: server.display.origin })).status).toBe(403);
  });

  test('the display’s socket answers the display’s origin only; the till’s bridge socket refuses it', async () => {
    const displayOrigin = server.display.origin;
    const displaySocketUrl = `${server.displayAddress.replace('http:', 'ws:').replace(/display$/, '')}__till/display-socket`;
    // The till's bridge socket, from the display's origin, even with the till's secret: refused.
    expect(await connect(socketUrl, displayOrigin)).toBe(403);
    // The display's socket from the till's origin, from elsewhere, or on the till's listener: refused.
    expect(await connect(displaySocketUrl, origin)).toBe(403);
    expect(await connect(displaySocketUrl, 'http://evil.example')).toBe(403);
    expect(await connect(`${server.address.replace('http:', 'ws:')}__till/display-socket`, origin)).toBe(403);
    expect(await connect(`${server.address.replace('http:', 'ws:')}__till/display-socket`, displayOrigin)).toBe(403);
    // Nor is the till's bridge on the display's listener.
    expect(await connect(displaySocketUrl.replace('display-socket', 'socket'), displayOrigin)).toBe(403);

    const display = (await connect(displaySocketUrl, displayOrigin)) as WebSocket;
    const till = (await connect(socketUrl, origin)) as WebSocket;
    try {
      display.send(JSON.stringify({ id: 1, channel: CHANNELS.getState }));
      expect(await nextMessage(display)).toEqual({ id: 1, refused: 'No such channel.' });
      display.send(JSON.stringify({ id: 2, channel: CHANNELS.dataKey }));
      expect(await nextMessage(display)).toEqual({ id: 2, refused: 'No such channel.' });
      display.send(JSON.stringify({ id: 3, channel: DISPLAY_CHANNELS.currentModel }));
      expect(await nextMessage(display)).toEqual({ id: 3, result: null });
      till.send(JSON.stringify({ id: 4, channel: DISPLAY_CHANNELS.enterPhone, payload: { digits: '0501234567' } }));
      expect(await nextMessage(till)).toEqual({ id: 4, refused: 'No such channel.' });
      const model = IDLE_DISPLAY_MODEL;
      const pushed = nextMessage(display);
      expect(await server.core.handlers[CHANNELS.showOnDisplay]({ url: `${origin}/` }, model)).toMatchObject({
        ok: true,
        data: { displays: 1 },
      });
      expect(await pushed).toEqual({ push: DISPLAY_PUSH_CHANNEL, payload: model });
      // The display's keypad reaches the till's page: the display's sender is heard on its own origin.
      display.send(JSON.stringify({ id: 5, channel: DISPLAY_CHANNELS.enterPhone, payload: { digits: '0501234567' } }));
      expect(await nextMessage(display)).toMatchObject({ id: 5, result: { accepted: expect.any(Boolean) } });
    } finally {
      display.close();
      till.close();
    }
  });
});
