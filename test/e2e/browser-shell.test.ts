/**
 * The browser shell as a person runs it: its entry started as a child process with a folder of
 * its own, its printed address opened in Chromium, the demo used end to end; then everything
 * it must refuse, the key kept in Node, a second start, and Ctrl+C.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../common/contract';
import { CONTENT_SECURITY_POLICY } from '../../electron/app-page/content-security-policy';
import { DEMO_FIXTURES } from '../../sandbox';
import { rawGet } from '../support/raw-get';
import { checkCode, confirmRedeem, openCustomer } from './cashier';
import { builtRenderer, CHROMIUM_ARGS, CHROMIUM_PATH, requireChromium, VIEWPORT } from './harness';
import { addressOf, callOver, openSocket, runShell, stopShell, type Shell } from './shell-process';
import { portTakenLine } from '../../electron/browser-shell/kept-port';
import { freePort } from '../support/free-port';

/** A key set over the bridge: it must show up in no answer, no file in clear, no page. */
const API_KEY = 'browser-shell-key-7391';
const { layla } = DEMO_FIXTURES;

const get = rawGet;
const call = callOver;

describe('the browser shell, started as npm start starts it', () => {
  let work: string;
  let userData: string;
  let rendererDir: string;
  let shell: Shell;
  let address: string;
  let origin: string;
  let secret: string;
  let browser: Browser;
  let page: Page;
  /** Every body the shell sent in this file, checked for the key at the end. */
  const answers: string[] = [];

  beforeAll(async () => {
    requireChromium();
    work = await mkdtemp(join(tmpdir(), 'till-browser-shell-'));
    userData = join(work, 'user-data');
    rendererDir = await builtRenderer(join(work, 'renderer'));
    shell = runShell(userData, rendererDir);
    address = await addressOf(shell);
    origin = new URL(address).origin;
    secret = new URL(address).pathname.split('/')[1]!;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await browser?.close();
    if (shell && shell.child.exitCode === null) {
      shell.child.kill('SIGINT');
      await shell.exited;
    }
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('prints one line with its address, and serves the page with the app’s Content-Security-Policy', async () => {
    expect(shell.output().trim().split('\n')).toHaveLength(1);
    // The customer display's address beside the till's: a listener, so an origin, of its own,
    // with a secret of its own, never the till's.
    const display = /; its customer display is at (http:\/\/127\.0\.0\.1:(\d+)\/([A-Za-z0-9_-]{43})\/display)$/m.exec(
      shell.output(),
    );
    expect(display).not.toBeNull();
    expect(new URL(display![1]!).origin).not.toBe(origin);
    expect(display![3]).not.toBe(secret);
    expect((await rawGet(display![1]!)).status).toBe(200);
    expect((await rawGet(`${address}display`)).status).toBe(404);
    const response = await page.goto(address);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Welcome to Loyalty Till');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Try the demo');
  });

  it('runs the demo: finds Layla by phone, checks RW-LAYLA001 and redeems it', async () => {
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.keyboard.press('Enter');
    await page.locator('#search').waitFor();
    await expect.poll(() => page.getByTestId('demo-badge').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Connected');

    await openCustomer(page, '0501234567', layla.name);
    await checkCode(page, layla.rewards.availableProduct, '+966501234567');
    await confirmRedeem(page, 'POS-BROWSER-1');
    await page.getByTestId('redeemed').waitFor();
    expect(await page.getByTestId('redeemed').textContent()).toContain('Redeemed');
    expect(await page.getByTestId('redeemed').textContent()).toContain('for order POS-BROWSER-1');

    // Checked again, the service says it is used: it was redeemed, on the demo service.
    await checkCode(page, layla.rewards.availableProduct, '0501234567');
    await expect
      .poll(() => page.locator('[data-testid="reward-result"] [data-testid="reward-state"]').textContent())
      .toMatch(/^Used on /);
    expect(cspViolations).toEqual([]);
  });

  it('refuses requests without the secret, with a wrong one, a wrong Host or another Origin', async () => {
    const host = new URL(origin).host;
    const refusals = [
      await get(`${origin}/`),
      await get(`${origin}/index.html`),
      await get(`${origin}/assets/`),
      await get(`${origin}/${'x'.repeat(secret.length)}/`),
      await get(`${origin}/${secret.slice(0, -1)}/index.html`),
      await get(`${address}`, { host: `evil.example:${new URL(origin).port}` }),
      await get(`${address}`, { host: 'evil.example' }),
      await get(`${address}`, { host, origin: 'http://evil.example' }),
      await get(`${address}__till/bridge.js`, { host, origin: 'null' }),
    ];
    for (const refused of refusals) {
      answers.push(refused.body);
      expect(refused.status).toBe(403);
      expect(refused.body).not.toContain('<');
      expect(refused.body).not.toContain(secret);
      expect(refused.body).not.toMatch(/createTillApi|till:|Loyalty Till<\/title>/);
    }
    // The same requests with the secret and the app's own Host are served.
    const served = await get(address);
    answers.push(served.body);
    expect(served.status).toBe(200);
    expect(served.body).toContain('<title>Loyalty Till</title>');
    expect(served.body).toContain('<script src="./__till/bridge.js">');
  });

  it('refuses a WebSocket from another origin, without an Origin or without the secret', async () => {
    const socketUrl = `ws://${new URL(origin).host}/${secret}/__till/socket`;
    const refused = [
      await openSocket(socketUrl, 'http://evil.example'),
      await openSocket(socketUrl, 'null'),
      await openSocket(socketUrl),
      await openSocket(`ws://${new URL(origin).host}/__till/socket`, origin),
      await openSocket(`ws://${new URL(origin).host}/${'y'.repeat(secret.length)}/__till/socket`, origin),
    ];
    for (const attempt of refused) {
      expect(attempt).toMatchObject({ status: 403 });
      if ('body' in attempt) answers.push(attempt.body);
    }
  });

  it('keeps the keys in Node, encrypted with a key file, and Settings says it is not the OS’s store', async () => {
    let dataKey: string;
    const opened = await openSocket(`ws://${new URL(origin).host}/${secret}/__till/socket`, origin);
    if (!('open' in opened)) throw new Error(`The app's own socket was refused (${opened.status}).`);
    const socket = opened.open;
    try {
      const stored = (await call(socket, CHANNELS.setApiKey, { apiKey: API_KEY })) as { result: { ok: boolean } };
      answers.push(JSON.stringify(stored));
      expect(stored.result.ok).toBe(true);
      const state = (await call(socket, CHANNELS.getState)) as { result: { data: { key: unknown; mode: string } } };
      answers.push(JSON.stringify(state));
      expect(state.result.data.key).toEqual({ set: true, lastFour: '7391', protection: 'key_file' });
      // The data key, sealed with the same key file: handed to the till's page, said to be key_file.
      const granted = (await call(socket, CHANNELS.dataKey)) as { result: { ok: boolean; data: { key: string } } };
      expect(granted.result).toMatchObject({ ok: true, data: { state: 'ready', protection: 'key_file', kept: true } });
      dataKey = granted.result.data.key;
      // The handlers still validate every payload and refuse channels that do not exist.
      const invalid = await call(socket, CHANNELS.getCustomer, { id: 'x', extra: 1 });
      expect(invalid).toMatchObject({ result: { ok: false, error: { kind: 'validation' } } });
      expect(await call(socket, 'till:anything')).toMatchObject({ refused: expect.any(String) });
    } finally {
      socket.close();
    }

    const files = await readdir(userData);
    expect(files).toEqual(
      expect.arrayContaining(['api-key.bin', 'api-key.key', 'data-key.bin', 'browser-shell.lock.json']),
    );
    // Neither key is in clear in any file of the folder.
    const raw = Buffer.from(dataKey, 'base64');
    for (const file of files.filter((name) => name.includes('.'))) {
      const bytes = await readFile(join(userData, file)).catch(() => Buffer.alloc(0));
      for (const spelling of [raw, Buffer.from(dataKey), Buffer.from(raw.toString('hex')), Buffer.from(API_KEY)])
        expect(bytes.includes(spelling), file).toBe(false);
    }
    expect((await readFile(join(userData, 'api-key.bin'))).toString('latin1')).not.toContain(API_KEY);
    expect((await stat(join(userData, 'api-key.key'))).mode & 0o777).toBe(0o600);

    await page.reload();
    await page.locator('main.screen > *').first().waitFor();
    await page.keyboard.press('F9');
    await expect
      .poll(() => page.getByTestId('key-status').textContent())
      .toContain('not protected by the operating system');
    expect(await page.getByTestId('key-status').textContent()).toContain('ending in 7391');
    expect(await page.getByTestId('data-key-protection').textContent()).toContain(
      'not protected by the operating system in the browser',
    );
    answers.push(await page.content());
    for (const body of answers) expect(body).not.toContain(API_KEY);
  });

  it('a second start for the same folder says where the first one is, and leaves it running', async () => {
    const second = runShell(userData, rendererDir);
    expect(await second.exited).toBe(1);
    expect(second.output().trim()).toBe(
      `Loyalty Till: already running for ${userData} (pid ${shell.child.pid}) at ${address}`,
    );
    expect((await get(address)).status).toBe(200);
  });

  it('stops cleanly on Ctrl+C, giving the folder up', async () => {
    shell.child.kill('SIGINT');
    expect(await shell.exited).toBe(0);
    expect(shell.output()).toContain('Loyalty Till stopped (SIGINT).');
    expect(existsSync(join(userData, 'browser-shell.lock.json'))).toBe(false);
    await expect(get(address)).rejects.toThrow();
    // The demo saved its data: Layla's reward stays redeemed for the next start.
    const saved = await readFile(join(userData, 'demo', 'sandbox.json'), 'utf8');
    expect(saved).toContain('POS-BROWSER-1');
  });

  it('starts again on the port it kept for its folder: the same origin, so the same browser storage', async () => {
    const port = new URL(address).port;
    shell = runShell(userData, rendererDir);
    const again = await addressOf(shell);
    expect(new URL(again).port).toBe(port);
    // A new secret each start: only the port is kept.
    expect(again).not.toBe(address);
    address = again;
    expect(JSON.parse(await readFile(join(userData, 'browser-shell-port.json'), 'utf8'))).toEqual({
      port: Number(port),
    });
  });

  it('a kept port that is taken is said in one line naming what to do, and it does not start elsewhere', async () => {
    const port = Number(new URL(address).port);
    // The first shell holds the port; a second folder that kept the same one cannot have it.
    const other = join(work, 'other-user-data');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'browser-shell-port.json'), `${JSON.stringify({ port })}\n`);
    const refused = runShell(other, rendererDir);
    expect(await refused.exited).toBe(1);
    const lines = refused.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`Loyalty Till: ${portTakenLine(port, other)}`);
    expect(lines[0]).toContain('--port');
    // --port with a port it cannot take is refused the same way; one out of range is a usage error.
    const outOfRange = runShell(other, rendererDir, ['--port', '80']);
    expect(await outOfRange.exited).toBe(1);
    expect(outOfRange.output().trim()).toBe('Loyalty Till: --port needs a port from 1024 to 65535.');
  });

  it('--port moves the till on purpose, and the move is kept', async () => {
    await stopShell(shell);
    const port = await freePort();
    shell = runShell(userData, rendererDir, ['--port', String(port)]);
    expect(Number(new URL(await addressOf(shell)).port)).toBe(port);
    await stopShell(shell);
    shell = runShell(userData, rendererDir);
    expect(Number(new URL(await addressOf(shell)).port)).toBe(port);
  });
});
