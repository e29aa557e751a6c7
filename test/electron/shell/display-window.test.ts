import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANNELS } from '../../../common/contract';
import { DISPLAY_CHANNELS, DISPLAY_PUSH_CHANNEL } from '../../../common/display-model';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { IDLE_DISPLAY_MODEL } from '../../support/display-models';

// The customer display's window (electron/shell/display-window.ts) against a recording stand-in
// for `electron`, as the till's window is in electron-shell.test.ts: which screen it opens on,
// with which web preferences, and who may call its channels. Behind it is the real app core.

const electron = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- vi.hoisted runs before imports
  const { EventEmitter } = require('node:events') as typeof import('node:events');
  const windows: any[] = [];
  class BrowserWindow extends EventEmitter {
    loaded: string[] = [];
    destroyed = false;
    bounds: unknown;
    fullScreen = false;
    webContents = Object.assign(new EventEmitter(), { send: vi.fn() });
    constructor(public options: Record<string, any>) {
      super();
      const { x, y, width, height } = options;
      this.bounds = { x, y, width, height };
      windows.push(this);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    setMenu = vi.fn();
    setBounds(bounds: unknown) {
      this.bounds = bounds;
    }
    setFullScreen(on: boolean) {
      this.fullScreen = on;
    }
    getBounds = () => ({ x: 0, y: 0, width: 1366, height: 768 });
    isDestroyed = () => this.destroyed;
    destroy() {
      this.destroyed = true;
      this.emit('closed');
    }
  }
  const screens = [
    { id: 1, label: 'Built-in', bounds: { x: 0, y: 0, width: 1366, height: 768 } },
    { id: 2, label: 'Customer', bounds: { x: 1366, y: 0, width: 1024, height: 768 } },
  ];
  const screen = Object.assign(new EventEmitter(), {
    getAllDisplays: () => screens.map((s) => ({ ...s })),
    getDisplayMatching: () => screens[0],
  });
  // The sessions the window asks for, by partition, each recording how it is set up.
  const partitions = new Map<string, any>();
  const session = {
    fromPartition: vi.fn((partition: string) => {
      if (!partitions.has(partition)) {
        partitions.set(partition, {
          protocol: { handle: vi.fn() },
          setPermissionRequestHandler: vi.fn(),
          setPermissionCheckHandler: vi.fn(),
          setDevicePermissionHandler: vi.fn(),
          setDisplayMediaRequestHandler: vi.fn(),
          webRequest: { onBeforeRequest: vi.fn() },
          on: vi.fn(),
        });
      }
      return partitions.get(partition);
    }),
  };
  // Electron's net.fetch of the renderer's file:// URLs, as the app:// handler uses it.
  const net = { fetch: vi.fn() };
  return { windows, BrowserWindow, screen, screens, session, partitions, net, ipcMain: { handle: vi.fn() } };
});
vi.mock('electron', () => electron);

const { startCustomerDisplay } = await import('../../../electron/shell/display-window');
const { secureWebPreferences } = await import('../../../electron/shell/window');

let fixture: CoreFixture;
let display: ReturnType<typeof startCustomerDisplay>;
let rendererRoot: string;
const mainWindow = new electron.BrowserWindow({ x: 0, y: 0, width: 1366, height: 768 });

const MODEL = IDLE_DISPLAY_MODEL;

beforeAll(async () => {
  fixture = await createCoreFixture();
  // A built renderer in small: the till's page and scripts, the display's page and what it names.
  rendererRoot = await mkdtemp(join(tmpdir(), 'till-display-renderer-'));
  await mkdir(join(rendererRoot, 'assets'));
  await writeFile(join(rendererRoot, 'index.html'), '<!doctype html><script src="./assets/till.js"></script>');
  await writeFile(join(rendererRoot, 'assets', 'till.js'), 'the till');
  await writeFile(
    join(rendererRoot, 'display.html'),
    '<!doctype html><head><script type="module" src="./assets/display.js"></script></head>',
  );
  await writeFile(join(rendererRoot, 'assets', 'display.js'), 'the display');
  electron.net.fetch.mockImplementation(async (url: string) => new Response(await readFile(fileURLToPath(url))));
  electron.windows.length = 0;
  display = startCustomerDisplay({
    core: fixture.core,
    preloadPath: '/app/display-preload.cjs',
    devTools: false,
    rendererRoot,
    mainWindow: () => mainWindow as any,
  });
});
afterAll(async () => {
  display.stop();
  await fixture.dispose();
  await rm(rendererRoot, { recursive: true, force: true });
});

type Handler = (event: unknown, payload: unknown) => Promise<any>;
const handler = (channel: string): Handler =>
  electron.ipcMain.handle.mock.calls.find(([name]) => name === channel)![1] as Handler;

describe('the customer display window', () => {
  test('opens nowhere until a screen is chosen: never on the cashier’s by default', async () => {
    await display.place();
    expect(electron.windows).toHaveLength(0);
    expect(display.screens()).toEqual([
      { id: 1, label: 'Built-in', width: 1366, height: 768, cashiers: true },
      { id: 2, label: 'Customer', width: 1024, height: 768, cashiers: false },
    ]);
  });

  test('on the chosen screen: frameless, full screen, no menu, the hardened preferences, its own preload', async () => {
    await fixture.call('updateSettings', { customerDisplayId: 2 });
    await display.place();
    expect(electron.windows).toHaveLength(1);
    const [window] = electron.windows;
    expect(window.options).toMatchObject({ x: 1366, y: 0, width: 1024, height: 768, frame: false, fullscreen: true });
    expect(window.setMenu).toHaveBeenCalledWith(null);
    // It never navigates, not even to the till's own page on the same origin.
    const navigation = { url: 'app://till/index.html', preventDefault: vi.fn() };
    window.webContents.emit('will-navigate', navigation);
    expect(navigation.preventDefault).toHaveBeenCalled();
    // On its own host, in its own in-memory session (no `persist:`): nothing of the till's storage.
    expect(window.loaded).toEqual(['app://display/display.html']);
    // The till window's preferences (whose values electron-shell.test.ts holds to the
    // checklist), with the display's own preload and partition.
    expect(window.options.webPreferences).toEqual({
      ...secureWebPreferences({ preloadPath: '/app/display-preload.cjs', devTools: false }),
      partition: 'display',
    });
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
  });

  test('its session serves the display’s page and what it names, nothing of the till’s, with the CSP', async () => {
    expect(electron.session.fromPartition).toHaveBeenCalledWith('display');
    const partition = electron.partitions.get('display');
    const [scheme, serve] = partition.protocol.handle.mock.calls[0] as [string, (r: Request) => Promise<Response>];
    expect(scheme).toBe('app');
    const page = await serve(new Request('app://display/display.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(await (await serve(new Request('app://display/assets/display.js'))).text()).toBe('the display');
    for (const url of ['app://display/assets/till.js', 'app://display/index.html', 'app://till/index.html']) {
      expect((await serve(new Request(url))).status, url).toBe(404);
    }
  });

  test('its session has the till session’s limits: no permission, no download, no network', () => {
    const partition = electron.partitions.get('display');
    const decide = vi.fn();
    partition.setPermissionRequestHandler.mock.calls[0][0]({}, 'media', decide);
    expect(decide).toHaveBeenCalledWith(false);
    expect(partition.setPermissionCheckHandler.mock.calls[0][0]()).toBe(false);
    expect(partition.setDevicePermissionHandler.mock.calls[0][0]()).toBe(false);
    const cancel = vi.fn();
    const [filter, listener] = partition.webRequest.onBeforeRequest.mock.calls[0];
    expect(filter.urls).toEqual(expect.arrayContaining(['http://*/*', 'https://*/*', 'ws://*/*']));
    listener({ url: 'ws://127.0.0.1:4000/secret/__till/socket' }, cancel);
    expect(cancel).toHaveBeenCalledWith({ cancel: true });
    const [event, onDownload] = partition.on.mock.calls.find(([name]: [string]) => name === 'will-download');
    expect(event).toBe('will-download');
    const preventDefault = vi.fn();
    onDownload({ preventDefault });
    expect(preventDefault).toHaveBeenCalled();
  });

  test('gets every model the till shows, and its channels answer its own window only', async () => {
    const [window] = electron.windows;
    expect(await fixture.call('showOnDisplay', MODEL)).toEqual({ ok: true, data: { displays: 1 } });
    expect(window.webContents.send).toHaveBeenCalledWith(DISPLAY_PUSH_CHANNEL, MODEL);
    const fromDisplay = { sender: window.webContents, senderFrame: { url: 'app://display/display.html' } };
    expect(await handler(DISPLAY_CHANNELS.currentModel)(fromDisplay, undefined)).toEqual(MODEL);
    // Its window on the till's origin, as the display once was, is not the display.
    const fromOldOrigin = { sender: window.webContents, senderFrame: { url: 'app://till/display.html' } };
    expect(await handler(DISPLAY_CHANNELS.currentModel)(fromOldOrigin, undefined)).toMatchObject({
      reason: 'forbidden_sender',
    });
    // The till's channels refuse the display's origin: its page never gets the data key.
    expect(
      await fixture.core.handlers[CHANNELS.dataKey]({ url: 'app://display/display.html' }, undefined),
    ).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    const fromTill = { sender: mainWindow.webContents, senderFrame: { url: 'app://till/index.html' } };
    expect(await handler(DISPLAY_CHANNELS.currentModel)(fromTill, undefined)).toMatchObject({
      reason: 'forbidden_sender',
    });
    expect(display.owns(window.webContents as any)).toBe(true);
    expect(display.owns(mainWindow.webContents as any)).toBe(false);
  });

  test('follows the monitors: moved when its screen changes, closed when it is unplugged', async () => {
    const [window] = electron.windows;
    electron.screens[1]!.bounds = { x: 1366, y: 0, width: 1920, height: 1080 };
    electron.screen.emit('display-metrics-changed');
    await vi.waitFor(() => expect(window.bounds).toEqual({ x: 1366, y: 0, width: 1920, height: 1080 }));
    const unplugged = electron.screens.splice(1, 1);
    electron.screen.emit('display-removed');
    await vi.waitFor(() => expect(window.destroyed).toBe(true));
    // The cashier's screen remains, and the display does not move onto it.
    expect(electron.windows).toHaveLength(1);
    expect(await fixture.call('showOnDisplay', MODEL)).toEqual({ ok: true, data: { displays: 0 } });
    electron.screens.push(...unplugged);
  });
});
