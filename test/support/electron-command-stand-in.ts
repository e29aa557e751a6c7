/**
 * A recording stand-in for `electron` as a command-line run of the Electron shell uses it
 * (`--import-api-key`, `--health`): the app with its lifecycle to drive (`ready`), and every
 * API a normal start would touch recorded, so a test can say that none was. Made inside
 * `vi.hoisted`, before the shell's module is imported:
 * `const electron = await vi.hoisted(async () => (await import('…/electron-command-stand-in')).commandStandIn());`
 * then `vi.mock('electron', () => electron)`.
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';
import { createSafeStorageStandIn } from './safe-storage-stand-in';

export function commandStandIn() {
  const app = Object.assign(new EventEmitter(), {
    paths: {} as Record<string, string>,
    ready: null as null | (() => void),
    isPackaged: true,
    whenReady() {
      return new Promise<void>((resolve) => (app.ready = resolve));
    },
    getPath: (name: string) => app.paths[name] ?? `/nonexistent/${name}`,
    getVersion: () => '1.4.2',
    requestSingleInstanceLock: vi.fn(() => true),
    enableSandbox: vi.fn(),
    quit: vi.fn(),
    exit: vi.fn(),
  });
  const windows: unknown[] = [];
  return {
    app,
    windows,
    BrowserWindow: class {
      constructor() {
        windows.push(this);
      }
    },
    ipcMain: { handle: vi.fn() },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    Menu: { buildFromTemplate: vi.fn(), setApplicationMenu: vi.fn() },
    net: { fetch: vi.fn() },
    session: { defaultSession: {} },
    shell: { openPath: vi.fn() },
    // With the asynchronous API only: its synchronous methods throw and are recorded.
    safeStorage: createSafeStorageStandIn(),
  };
}
