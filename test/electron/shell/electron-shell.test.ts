import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHANNELS, PAGE_PUSH_CHANNELS } from '../../../common/contract';
import { DISPLAY_CHANNELS } from '../../../common/display-model';
import { sealedTheOldWay } from '../../support/safe-storage-stand-in';

// The Electron binary cannot run here, so the thin Electron shell (main.ts, window.ts,
// web-contents-guards.ts) is exercised against a recording stand-in for the `electron`
// module: what it registers, with which options, and how its guards answer. Everything
// behind the handlers is the real app core.

type Callback = (...args: unknown[]) => unknown;

/** Stored by an earlier version, through safeStorage's synchronous API, before this start. */
const EARLIER_KEY = 'sk_live_storedBySyncApi_7Kq2';

// safeStorage with the asynchronous API only: its synchronous methods throw and are recorded.
const safeStorage = await vi.hoisted(async () =>
  (await import('../../support/safe-storage-stand-in')).createSafeStorageStandIn(),
);

const electron = vi.hoisted(() => {
  // Only node built-ins may be used inside vi.hoisted.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- vi.hoisted runs before imports
  const { EventEmitter } = require('node:events') as typeof import('node:events');
  const app = Object.assign(new EventEmitter(), {
    paths: {} as Record<string, string>,
    ready: null as null | (() => void),
    isPackaged: false,
    whenReady() {
      return new Promise<void>((resolve) => (app.ready = resolve));
    },
    getPath: (name: string) => app.paths[name] ?? `/nonexistent/${name}`,
    getVersion: () => '0.0.0-test',
    getPreferredSystemLanguages: () => ['ar-SA', 'en-GB'],
    getLocale: () => 'en-US',
    requestSingleInstanceLock: vi.fn(() => true),
    isDefaultProtocolClient: vi.fn(() => false),
    setAsDefaultProtocolClient: vi.fn(() => true),
    enableSandbox: vi.fn(),
    quit: vi.fn(),
    exit: vi.fn(),
  });
  const windows: Array<{ options: Record<string, any>; loaded: string[] }> = [];
  class BrowserWindow extends EventEmitter {
    loaded: string[] = [];
    webContents = Object.assign(new EventEmitter(), { send: vi.fn() });
    constructor(public options: Record<string, any>) {
      super();
      windows.push(this);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    isDestroyed = () => false;
    isMinimized = () => false;
    restore = vi.fn();
    focus = vi.fn();
    show = vi.fn();
  }
  const session = {
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
    setDevicePermissionHandler: vi.fn(),
    setDisplayMediaRequestHandler: vi.fn(),
    webRequest: { onBeforeRequest: vi.fn() },
    on: vi.fn(),
  };
  // One screen, and no customer display chosen: its window stays closed (display-window.test.ts).
  const screen = Object.assign(new EventEmitter(), {
    getAllDisplays: () => [{ id: 1, label: 'Built-in', bounds: { x: 0, y: 0, width: 1366, height: 768 } }],
    getDisplayMatching: () => ({ id: 1 }),
  });
  // The customer display's own partition, set up at start whether or not a screen is chosen.
  const displaySession = {
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
    setDevicePermissionHandler: vi.fn(),
    setDisplayMediaRequestHandler: vi.fn(),
    webRequest: { onBeforeRequest: vi.fn() },
    on: vi.fn(),
    protocol: { handle: vi.fn() },
  };
  return {
    app,
    windows,
    screen,
    BrowserWindow,
    displaySession,
    session: { defaultSession: session, fromPartition: vi.fn(() => displaySession) },
    ipcMain: { handle: vi.fn() },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    Menu: { buildFromTemplate: vi.fn((template: unknown) => ({ template })), setApplicationMenu: vi.fn() },
    net: { fetch: vi.fn() },
    shell: { openPath: vi.fn(async () => '') },
  };
});

vi.mock('electron', () => ({ ...electron, safeStorage }));
vi.mock('electron-log/main', () => ({
  default: {
    transports: { file: {}, console: {} },
    info: vi.fn(),
    warn: vi.fn(),
    error: vi.fn(),
  },
}));

let userData: string;

beforeAll(async () => {
  userData = await mkdtemp(join(tmpdir(), 'till-shell-'));
  electron.app.paths = { userData, logs: join(userData, 'logs') };
  await writeFile(join(userData, 'api-key.bin'), sealedTheOldWay(EARLIER_KEY), { mode: 0o600 });
  await import('../../../electron/shell/main');
  electron.app.ready?.();
  await vi.waitFor(() => expect(electron.windows).toHaveLength(1));
});

afterAll(async () => {
  electron.app.emit('will-quit', { preventDefault: () => undefined });
  await rm(userData, { recursive: true, force: true });
});

type Handler = (event: unknown, payload: unknown) => Promise<any>;
function registered(channel: string): Handler {
  const call = electron.ipcMain.handle.mock.calls.find(([name]) => name === channel);
  if (!call) throw new Error(`${channel} is not registered`);
  return call[1] as Handler;
}

describe('main.ts', () => {
  test('registers the app:// scheme as privileged and forces the sandbox before the app is ready', () => {
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
    expect(electron.app.enableSandbox).toHaveBeenCalled();
    expect(electron.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(electron.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
  });

  test('the till’s session serves the till’s host only; the display gets a partition and host of its own', async () => {
    const [, serveTill] = electron.protocol.handle.mock.calls[0] as unknown as [
      string,
      (r: Request) => Promise<Response>,
    ];
    // Refused before any file is read: app://display is not the till session's.
    expect((await serveTill(new Request('app://display/display.html'))).status).toBe(404);
    expect((await serveTill(new Request('app://till/display.html'))).status).toBe(404);
    expect(electron.session.fromPartition).toHaveBeenCalledWith('display');
    expect(electron.displaySession.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
    // The display's partition is guarded as the till's session is.
    expect(electron.displaySession.setPermissionRequestHandler).toHaveBeenCalled();
    expect(electron.displaySession.webRequest.onBeforeRequest).toHaveBeenCalled();
  });

  test('registers exactly the contract channels, each reaching the app core with the sender frame URL', async () => {
    const channels = electron.ipcMain.handle.mock.calls.map(([name]) => name);
    expect(channels.sort()).toEqual([...Object.values(CHANNELS), ...Object.values(DISPLAY_CHANNELS)].sort());

    const fromApp = await registered(CHANNELS.getState)({ senderFrame: { url: 'app://till/index.html' } }, undefined);
    expect(fromApp).toMatchObject({ ok: true, data: { mode: 'unconfigured', key: { set: true, protection: 'os' } } });
    // The OS's preferred languages reach the renderer through the contract.
    expect(fromApp).toMatchObject({ ok: true, data: { systemLanguages: ['ar-SA', 'en-GB'] } });
    const fromElsewhere = await registered(CHANNELS.getState)(
      { senderFrame: { url: 'https://evil.example/' } },
      undefined,
    );
    expect(fromElsewhere).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    const noFrame = await registered(CHANNELS.getState)({ senderFrame: null }, undefined);
    expect(noFrame).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
  });

  test('the key an earlier version sealed with the synchronous API is read, and sealed again as asked', async () => {
    const state = await registered(CHANNELS.getState)({ senderFrame: { url: 'app://till/index.html' } }, undefined);
    expect(state).toMatchObject({ ok: true, data: { key: { set: true, lastFour: EARLIER_KEY.slice(-4) } } });
    // The stand-in asked for the old bytes to be sealed again: they now carry its current format.
    const stored = await readFile(join(userData, 'api-key.bin'));
    expect(stored.subarray(0, 3).toString()).toBe('v2:');
    expect((await safeStorage.decryptStringAsync(stored)).result).toBe(EARLIER_KEY);
  });

  test('the key goes through safeStorage into the user-data folder', async () => {
    const result = await registered(CHANNELS.setApiKey)(
      { senderFrame: { url: 'app://till/' } },
      { apiKey: 'shell-test-key-1234' },
    );
    expect(result).toMatchObject({ ok: true, data: { key: { set: true, lastFour: '1234', protection: 'os' } } });
  });

  test('opens one window on app://till with the bundled preload and the secure web preferences', () => {
    const [window] = electron.windows;
    expect(window!.loaded).toEqual(['app://till/index.html']);
    expect(window!.options.webPreferences).toMatchObject({
      preload: expect.stringMatching(/preload\.cjs$/),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
    expect(window!.options.webPreferences).not.toHaveProperty('enableBlinkFeatures');
  });

  test('a second start focuses the existing window instead of opening another', () => {
    electron.app.emit('second-instance');
    expect(electron.windows).toHaveLength(1);
    expect((electron.windows[0] as any).focus).toHaveBeenCalled();
  });

  test('registers as the loyalty-till:// handler where the installer did not, with -- before the link', () => {
    expect(electron.app.isDefaultProtocolClient).toHaveBeenCalledWith(
      'loyalty-till',
      process.execPath,
      expect.any(Array),
    );
    const [scheme, path, args] = electron.app.setAsDefaultProtocolClient.mock.calls[0] as unknown as [
      string,
      string,
      string[],
    ];
    expect(scheme).toBe('loyalty-till');
    expect(path).toBe(process.execPath);
    expect(args.at(-1)).toBe('--');
  });

  test('a link in a second instance’s command line, and a macOS open-url, reach the page on the link channel', async () => {
    const [window] = electron.windows as unknown as Array<{ webContents: { send: ReturnType<typeof vi.fn> } }>;
    // The page asks for what arrived before it listened; from then on links are pushed.
    const taken = await registered(CHANNELS.takeLinkMessages)(
      { senderFrame: { url: 'app://till/index.html' } },
      undefined,
    );
    expect(taken).toEqual({ ok: true, data: [] });

    electron.app.emit(
      'second-instance',
      {},
      ['Loyalty Till.exe', '--allow-file-access', '--', 'loyalty-till://find?q=Layla'],
      '/',
    );
    expect(window!.webContents.send).toHaveBeenLastCalledWith(
      PAGE_PUSH_CHANNELS.link,
      expect.objectContaining({ kind: 'request', request: { route: 'find', q: 'Layla' } }),
    );

    const openUrl = { preventDefault: vi.fn() };
    electron.app.emit('open-url', openUrl, 'loyalty-till://customer?phone=%2B966501234567');
    expect(openUrl.preventDefault).toHaveBeenCalled();
    expect(window!.webContents.send).toHaveBeenLastCalledWith(
      PAGE_PUSH_CHANNELS.link,
      expect.objectContaining({ kind: 'request', request: { route: 'customer', phone: '+966501234567' } }),
    );
    // Arguments that are not links are never read as one.
    const sends = window!.webContents.send.mock.calls.length;
    electron.app.emit('second-instance', {}, ['Loyalty Till.exe', '--inspect', 'https://evil.example/'], '/');
    expect(window!.webContents.send.mock.calls.length).toBe(sends);
  });

  test('never calls safeStorage’s synchronous methods, which Electron 46 removes', async () => {
    // Everything above sealed and opened keys: at start, on setApiKey, the data key.
    expect((await readFile(join(userData, 'api-key.bin'))).subarray(0, 3).toString()).toBe('v2:');
    expect(safeStorage.syncCalls).toEqual([]);
  });

  test('the menu offers Open Logs Folder, which opens the logs folder', () => {
    const template = electron.Menu.buildFromTemplate.mock.calls.at(-1)![0] as Array<{
      submenu?: Array<{ label?: string; click?: () => void }>;
    }>;
    const item = template.flatMap((menu) => menu.submenu ?? []).find((entry) => entry.label === 'Open Logs Folder');
    item!.click!();
    expect(electron.shell.openPath).toHaveBeenCalledWith(join(userData, 'logs'));
  });
});

describe('web-contents guards', () => {
  const contents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn() });
  beforeAll(() => {
    electron.app.emit('web-contents-created', {}, contents);
  });

  const navigate = (name: string, url: string) => {
    const event = { url, preventDefault: vi.fn() };
    contents.emit(name, event);
    return event.preventDefault.mock.calls.length > 0;
  };

  test('navigation and redirects leave the app only to be blocked', () => {
    expect(navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate('will-navigate', 'app://till.evil.example/')).toBe(true);
    expect(navigate('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(navigate('will-redirect', 'https://evil.example/')).toBe(true);
    expect(navigate('will-navigate', 'app://till/index.html#/settings')).toBe(false);
  });

  test('webviews are never attached and new windows are always denied', () => {
    expect(navigate('will-attach-webview', 'about:blank')).toBe(true);
    const openHandler = contents.setWindowOpenHandler.mock.calls[0]![0] as (details: { url: string }) => unknown;
    expect(openHandler({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(openHandler({ url: 'app://till/index.html' })).toEqual({ action: 'deny' });
  });

  test('permissions are denied and renderer network requests cancelled', () => {
    const session = electron.session.defaultSession;
    const decide = vi.fn();
    (session.setPermissionRequestHandler.mock.calls[0]![0] as Callback)({}, 'media', decide);
    expect(decide).toHaveBeenCalledWith(false);
    expect((session.setPermissionCheckHandler.mock.calls[0]![0] as Callback)()).toBe(false);
    const cancel = vi.fn();
    const [filter, listener] = session.webRequest.onBeforeRequest.mock.calls[0]! as [{ urls: string[] }, Callback];
    expect(filter.urls).toEqual(expect.arrayContaining(['http://*/*', 'https://*/*']));
    listener({ url: 'https://tracker.example/x?phone=1' }, cancel);
    expect(cancel).toHaveBeenCalledWith({ cancel: true });
  });

  test('a download the page starts is cancelled: exports leave through the main process only', () => {
    const session = electron.session.defaultSession;
    const [event, onDownload] = session.on.mock.calls.find(([name]) => name === 'will-download')! as [string, Callback];
    expect(event).toBe('will-download');
    const preventDefault = vi.fn();
    onDownload({ preventDefault });
    expect(preventDefault).toHaveBeenCalled();
  });
});
