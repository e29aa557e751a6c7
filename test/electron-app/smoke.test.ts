// The built app in the real Electron shell, as a cashier meets it: run by
// `npm run test:electron` on a machine with the Electron binary (a Windows or macOS till
// before a release: docs/operations.md). Each launch gets its own user-data folder.
//
// What only a real till can show, and this test covers: the page on app://, its CSP, the
// demo, a redemption, the navigation guard, a key kept by safeStorage across a restart, and
// `--import-api-key` run as a deployment script runs it (standard input piped into the real
// binary, the key sealed by DPAPI or the Keychain, read back by the app). What it does not
// cover, and the release checklist in docs/operations.md has checked by hand: the policy from
// the machine's folder, the registry or a profile (it needs an administrator; the same core
// is tested under Node and in Chromium), and an update installed from a feed (it needs a
// signed build and a feed: the decisions and electron-updater's reading of a feed are tested
// under Node).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../electron/app-page/app-protocol';
import { CONTENT_SECURITY_POLICY } from '../../electron/app-page/content-security-policy';
import type { TillApi } from '../../common/contract';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LAYLA = { name: 'Layla Haddad', phone: '+966 50 123 4567', code: 'RW-LAYLA001' };
const KEY = 'smoke-test-key-8472';

function electronBinary(): string {
  const binary = process.env.ELECTRON_BINARY;
  if (!binary)
    throw new Error('ELECTRON_BINARY is not set: run this through `npm run test:electron`, which finds the binary.');
  return binary;
}

async function launch(userDataDir: string): Promise<{ app: ElectronApplication; page: Page }> {
  const app = await _electron.launch({
    executablePath: electronBinary(),
    args: [ROOT, `--user-data-dir=${userDataDir}`],
    cwd: ROOT,
    timeout: 60_000,
  });
  const page = await app.firstWindow();
  page.setDefaultTimeout(20_000);
  await page.locator('main.screen > *').first().waitFor();
  return { app, page };
}

const till = (page: Page) => ({
  state: () => page.evaluate(() => (window as unknown as { till: TillApi }).till.getState()),
  setApiKey: (apiKey: string) =>
    page.evaluate((key) => (window as unknown as { till: TillApi }).till.setApiKey({ apiKey: key }), apiKey),
});

describe('Loyalty Till in Electron', () => {
  let userDataDir: string;
  let app: ElectronApplication | undefined;
  let page: Page;

  beforeAll(async () => {
    userDataDir = await mkdtemp(join(tmpdir(), 'till-electron-'));
    ({ app, page } = await launch(userDataDir));
  });

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await rm(userDataDir, { recursive: true, force: true });
  });

  it('starts on its own page and offers the demo', async () => {
    expect(page.url()).toBe(`${APP_ORIGIN}/index.html`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Welcome to Loyalty Till');
    await expect.poll(() => page.getByRole('button', { name: 'Try the demo' }).isVisible()).toBe(true);
  });

  it('serves the page with the Content-Security-Policy header', async () => {
    // connect-src 'self' lets the page read its own document's headers, and nothing else.
    const header = await page.evaluate(async () => (await fetch('/index.html')).headers.get('content-security-policy'));
    expect(header).toBe(CONTENT_SECURITY_POLICY);
  });

  it('starts the demo and finds Layla by phone', async () => {
    await page.getByRole('button', { name: 'Try the demo' }).click();
    await page.locator('#search').waitFor();
    await expect.poll(() => page.getByTestId('demo-badge').isVisible()).toBe(true);
    await page.locator('#search').fill(LAYLA.phone);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.locator('.result__name').allTextContents()).toEqual([LAYLA.name]);
    await page.locator('#search').focus();
    await page.locator('#search').press('Enter');
    await expect.poll(() => page.getByTestId('customer-name').textContent()).toBe(LAYLA.name);
  });

  it(`checks and redeems ${LAYLA.code}`, async () => {
    await page.keyboard.press('F3');
    await page.locator('#reward-code').fill(LAYLA.code);
    await page.locator('#reward-code').press('Enter');
    const state = () => page.locator('[data-testid="reward-result"] [data-testid="reward-state"]').textContent();
    await expect.poll(state).toBe('Available');
    await page.locator('#order-reference').fill('SMOKE-1');
    await page.locator('#paid').check();
    await page.getByTestId('redeem').click();
    await expect.poll(() => page.getByTestId('redeemed').textContent()).toContain('SMOKE-1');
  });

  it('refuses a navigation to another origin', async () => {
    const blocked = app!.evaluate(
      ({ BrowserWindow }) =>
        new Promise<{ url: string; prevented: boolean }>((resolve) => {
          const contents = BrowserWindow.getAllWindows()[0]!.webContents;
          // Listeners run in order: the app's guard, installed at start-up, has already decided.
          contents.once('will-navigate', (event) => resolve({ url: event.url, prevented: event.defaultPrevented }));
        }),
    );
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    expect(await blocked).toEqual({ url: 'https://example.com/', prevented: true });
    expect(page.url().startsWith(`${APP_ORIGIN}/`)).toBe(true);
    // Still the same page, with what the cashier had on screen.
    await expect.poll(() => page.getByTestId('redeemed').isVisible()).toBe(true);
  });

  it('stores a key through safeStorage and reads it back after a restart', async () => {
    const stored = await till(page).setApiKey(KEY);
    expect(stored.ok && stored.data.key).toMatchObject({ set: true, lastFour: '8472' });
    const protection = stored.ok ? stored.data.key.protection : null;
    // On Windows and macOS the OS keeps the key (DPAPI, Keychain).
    if (process.platform === 'win32' || process.platform === 'darwin') expect(protection).toBe('os');
    const onDisk = await readFile(join(userDataDir, 'api-key.bin'));
    expect(onDisk.includes(Buffer.from(KEY))).toBe(false);

    await app!.close();
    app = undefined;
    ({ app, page } = await launch(userDataDir));
    const state = await till(page).state();
    expect(state.ok && state.data.key).toEqual({ set: true, lastFour: '8472', protection });
    // The key itself never reaches the page.
    expect(JSON.stringify(state)).not.toContain(KEY);
  });

  it('imports a key piped into --import-api-key, sealed as Settings seals it, and the app reads it', async () => {
    const importDir = await mkdtemp(join(tmpdir(), 'till-electron-import-'));
    try {
      const imported = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(electronBinary(), [ROOT, '--import-api-key', `--user-data-dir=${importDir}`], {
          cwd: ROOT,
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, output }));
        child.stdin.end(`${KEY}\n`);
      });
      expect(imported.code).toBe(0);
      expect(imported.output).not.toContain(KEY);
      const onDisk = await readFile(join(importDir, 'api-key.bin'));
      expect(onDisk.includes(Buffer.from(KEY))).toBe(false);

      await app?.close();
      ({ app, page } = await launch(importDir));
      const state = await till(page).state();
      expect(state.ok && state.data.key).toMatchObject({ set: true, lastFour: '8472' });
      if (process.platform === 'win32' || process.platform === 'darwin')
        expect(state.ok && state.data.key.protection).toBe('os');
    } finally {
      await app?.close().catch(() => undefined);
      app = undefined;
      await rm(importDir, { recursive: true, force: true });
    }
  });
});
