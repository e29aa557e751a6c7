import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { browserCommand } from '../../../electron/browser-shell/open-browser';
import { defaultUserDataDir, readShellOptions } from '../../../electron/browser-shell/shell-options';

const defaults = { rendererDir: '/app/dist/renderer', userDataDir: '/home/u/.config/Loyalty Till (browser)' };

describe('the browser shell’s command line', () => {
  test('defaults: the built renderer, its own folder, the browser opened', () => {
    expect(readShellOptions([], defaults)).toEqual({
      ...defaults,
      openBrowser: true,
      links: [],
      importApiKey: false,
      health: false,
      policyFile: null,
      port: null,
    });
  });

  test('reads both forms of each option, --browser and links', () => {
    const link = 'loyalty-till://customer?phone=%2B966501234567';
    expect(
      readShellOptions(
        ['--browser', '--user-data-dir', '/tmp/a', '--renderer-dir=/tmp/r', '--no-open', link],
        defaults,
      ),
    ).toEqual({
      userDataDir: '/tmp/a',
      rendererDir: '/tmp/r',
      openBrowser: false,
      links: [link],
      importApiKey: false,
      health: false,
      policyFile: null,
      port: null,
    });
  });

  test('takes --import-api-key and --health, as the Electron app does, and a policy file for development', () => {
    expect(readShellOptions(['--import-api-key', '--user-data-dir=/tmp/a'], defaults)).toMatchObject({
      importApiKey: true,
      userDataDir: '/tmp/a',
    });
    expect(readShellOptions(['--policy-file', '/tmp/p.json'], defaults)).toMatchObject({ policyFile: '/tmp/p.json' });
    // --health, as the Electron app takes it: the till's health printed, nothing started.
    expect(readShellOptions(['--health', '--user-data-dir=/tmp/a'], defaults)).toMatchObject({
      health: true,
      importApiKey: false,
      userDataDir: '/tmp/a',
    });
    expect(readShellOptions(['--policy-file'], defaults)).toEqual({ error: '--policy-file needs a file.' });
  });

  test('--port moves the till to another port on purpose: one a till may listen on, in either form', () => {
    expect(readShellOptions(['--port', '48123'], defaults)).toMatchObject({ port: 48123 });
    expect(readShellOptions(['--port=1024'], defaults)).toMatchObject({ port: 1024 });
    for (const bad of [['--port', '80'], ['--port', '65536'], ['--port', '4e4'], ['--port', '-1'], ['--port']]) {
      expect(readShellOptions(bad, defaults)).toEqual({ error: '--port needs a port from 1024 to 65535.' });
    }
  });

  test('refuses an unknown option and an option without its folder', () => {
    expect(readShellOptions(['--porty', '80'], defaults)).toMatchObject({ error: expect.stringContaining('--porty') });
    expect(readShellOptions(['--user-data-dir'], defaults)).toEqual({ error: '--user-data-dir needs a folder.' });
  });

  test('keeps its data beside the Electron app’s folder, not in it', () => {
    expect(defaultUserDataDir('linux', { XDG_CONFIG_HOME: '/x' })).toBe(join('/x', 'Loyalty Till (browser)'));
    expect(defaultUserDataDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' })).toBe(
      join('C:\\Users\\u\\AppData\\Roaming', 'Loyalty Till (browser)'),
    );
    expect(defaultUserDataDir('darwin', {})).toMatch(/Library.Application Support.Loyalty Till \(browser\)$/);
  });
});

describe('opening the default browser', () => {
  const url = 'http://127.0.0.1:5000/secret/';
  test('with the opener of each system; on Linux only where there is a display', () => {
    expect(browserCommand(url, 'darwin', {})).toEqual({ file: 'open', args: [url] });
    expect(browserCommand(url, 'win32', {})).toEqual({
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', `"start "" "${url}""`],
    });
    expect(browserCommand(url, 'linux', { DISPLAY: ':0' })).toEqual({ file: 'xdg-open', args: [url] });
    expect(browserCommand(url, 'linux', {})).toBeNull();
  });
});
