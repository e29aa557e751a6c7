import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import type { DisplayModel } from '../../common/display-model';
import { checkCode, confirmRedeem, openCustomer } from './cashier';
import { SCREENSHOT_DIR, scannerBurst, startHarness, type Harness } from './harness';
import { CHANNELS } from '../../common/contract';
import { axeViolations, THEMES } from './screen-checks';

// The customer display end to end: the till's page and the display's page in Chromium, each
// through the browser shell's real guards (its own address, bridge and socket), against the
// sandbox, online and with the service cut.

const { layla } = DEMO_FIXTURES;
const BRANCH_ID = '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b';
const DISPLAY_SIZES = [
  { width: 1024, height: 768 },
  { width: 1920, height: 1080 },
] as const;

describe('the customer display', () => {
  let h: Harness;
  let displayContext: BrowserContext;
  let display: Page;
  /** Every model the till pushed, as the display's window received it. */
  const models: DisplayModel[] = [];
  /** The display's whole DOM at each state. */
  const doms: string[] = [];
  let historyAtStart = 0;
  let laylaRecord: { cards: Array<{ id: string; serial_number: string }>; email: string; birthday: string };

  beforeAll(async () => {
    h = await startHarness({ requestTimeoutMs: 2000 });
    await h.configureService();
    const settings = await h.call('updateSettings', { branchId: BRANCH_ID, allowOfflineRedemption: true });
    if (!settings.ok) throw new Error(settings.error.message);
    const found = await h.call('getCustomer', { id: layla.id });
    if (!found.ok) throw new Error(found.error.message);
    laylaRecord = found.data as unknown as typeof laylaRecord;
    h.core.display.attach((model) => models.push(structuredClone(model)));
    await h.openApp();
    // Another window, as the display's own: no storage shared with the till's page.
    displayContext = await h.context.browser()!.newContext({ viewport: DISPLAY_SIZES[0], locale: 'en-GB' });
    display = await displayContext.newPage();
    display.setDefaultTimeout(10_000);
    await display.clock.install();
    await mkdir(SCREENSHOT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await displayContext?.close();
    await h?.close();
  });

  const view = () => display.locator('.display').getAttribute('data-view');
  const displayText = () => display.locator('.display-main').innerText();

  async function typeOnDisplay(digits: string): Promise<void> {
    for (const digit of digits) await display.locator(`[data-key="${digit}"]`).click();
  }

  /** axe with 0 violations and a screenshot, in both languages, both themes and both sizes. */
  async function checkState(name: string): Promise<void> {
    doms.push(await display.content());
    for (const language of ['en', 'ar'] as const) {
      if ((await display.locator('html').getAttribute('lang')) !== language)
        await display.getByTestId('display-language').click();
      await expect.poll(() => display.locator('html').getAttribute('lang')).toBe(language);
      doms.push(await display.content());
      for (const theme of THEMES) {
        await display.emulateMedia({ colorScheme: theme });
        for (const size of DISPLAY_SIZES) {
          await display.setViewportSize(size);
          const violations = await axeViolations(display);
          expect(violations, `${name} ${language} ${theme} ${size.width}: ${JSON.stringify(violations)}`).toEqual([]);
          await display.screenshot({
            path: join(SCREENSHOT_DIR, `display-${name}-${language}-${theme}-${size.width}x${size.height}.png`),
          });
        }
      }
    }
    if ((await display.locator('html').getAttribute('lang')) !== 'en')
      await display.getByTestId('display-language').click();
    await display.setViewportSize(DISPLAY_SIZES[0]);
    await display.emulateMedia({ colorScheme: 'light' });
  }

  it('opens at its own address under the shell’s guards, with its own bridge and no window.till', async () => {
    expect(h.till.displayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/display$/);
    const withoutSecret = h.till.displayUrl.replace(/\/[A-Za-z0-9_-]{43}\//, '/');
    expect((await fetch(withoutSecret)).status).toBe(403);
    await display.goto(h.till.displayUrl);
    historyAtStart = await display.evaluate(() => history.length);
    await expect.poll(view).toBe('idle');
    expect(await displayText()).toContain('Type your phone number to see your rewards');
    expect(await display.evaluate(() => [typeof (window as any).till, typeof (window as any).tillDisplay])).toEqual([
      'undefined',
      'object',
    ]);
    // Large type: body 28 px, keys 64 px at least.
    expect(await display.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize))).toBeGreaterThanOrEqual(
      28,
    );
    const keySizes = await display
      .locator('.display-keypad button')
      .evaluateAll((keys) =>
        keys.map((key) => Math.min(key.getBoundingClientRect().width, key.getBoundingClientRect().height)),
      );
    expect(Math.min(...keySizes)).toBeGreaterThanOrEqual(64);
    await checkState('idle');
  });

  it('a phone typed on the display, shown masked, opens the customer at the till', async () => {
    await typeOnDisplay('0501234567');
    expect(await display.getByTestId('display-typed').textContent()).toContain('•••••••567');
    await display.getByTestId('display-submit').click();
    // Cleared at once, whatever comes back.
    expect(
      await display.evaluate(() => document.querySelector('[data-testid="display-typed"]')?.textContent ?? ''),
    ).not.toContain('567');
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);
    expect(await h.page.getByTestId('entered-by-customer').textContent()).toContain('Entered by the customer');
    await expect.poll(view).toBe('customer');
    const text = await displayText();
    expect(text).toContain('Hello, Layla H.');
    expect(text).not.toContain('Haddad');
    expect(text).toContain('180');
    expect(text).toContain('Your rewards');
    await checkState('customer');
  });

  it('shows the check, then the redemption with the points before and after', async () => {
    await h.page.keyboard.press('F3');
    await h.page.locator('#reward-code').fill(layla.rewards.availablePoints);
    await h.page.locator('#reward-code').press('Enter');
    await expect.poll(view).toBe('check');
    expect(await displayText()).toContain('You can use this reward.');
    await checkState('check');
    await confirmRedeem(h.page, 'POS-DISPLAY-1');
    await h.page.getByTestId('redeemed').waitFor();
    await expect.poll(view).toBe('redeemed');
    expect(await displayText()).toContain('Breakfast for points — enjoy');
    expect(await displayText()).toContain('130 points left, −50');
    await checkState('redeemed');
  });

  it('returns to idle on Next customer, and blanks on the cashier’s key', async () => {
    await h.page.getByTestId('next-customer').click();
    await expect.poll(view).toBe('idle');
    expect(await displayText()).not.toContain('Layla');
    await h.page.keyboard.press('F10');
    await expect.poll(view).toBe('blank');
    expect(await displayText()).not.toContain('phone number');
    await checkState('blank');
    await h.page.keyboard.press('F10');
    await expect.poll(view).toBe('idle');
  });

  it('a number nobody has: the display says the cashier can sign them up, the till opens Register with it', async () => {
    const unknown = '0509990001';
    const search = await h.call('searchCustomers', { phone: '+966509990001' });
    expect(search.ok && search.data).toEqual([]);
    await typeOnDisplay(unknown);
    await display.getByTestId('display-submit').click();
    await expect.poll(view).toBe('not-found');
    expect(await displayText()).toContain('The cashier can sign you up.');
    await expect.poll(() => h.page.locator('#phone').inputValue()).toContain('50 999 0001');
    await checkState('not-found');
    await h.page.keyboard.press('Escape');
    await expect.poll(view).toBe('idle');
  });

  it('clears itself back to idle after the set time without activity', async () => {
    await openCustomer(h.page, layla.phoneShown, layla.name);
    await expect.poll(view).toBe('customer');
    await display.clock.fastForward(31_000);
    await expect.poll(view).toBe('idle');
    expect(await display.content()).not.toContain('Layla');
    await h.page.keyboard.press('Escape');
  });

  it('changes its own language with right to left, and the till’s stays as it is', async () => {
    await display.getByTestId('display-language').click();
    await expect.poll(() => display.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await displayText()).toContain('اكتب رقم هاتفك لترى مكافآتك');
    expect(await h.page.locator('html').getAttribute('dir')).toBe('ltr');
    expect(await h.page.locator('html').getAttribute('lang')).toBe('en');
    await display.getByTestId('display-language').click();
    await expect.poll(() => display.locator('html').getAttribute('dir')).toBe('ltr');
  });

  it('a scanned loyalty card opens its customer: the service’s search, kept to the exact serial', async () => {
    const serial = laylaRecord.cards[0]!.serial_number;
    await scannerBurst(h.page, serial.toLowerCase());
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);
    await expect.poll(view).toBe('customer');
    const searches = h.bridgeCalls.filter((call) => call.channel === CHANNELS.searchCustomers);
    expect(searches.map((call) => call.payload)).toContainEqual({ search: serial, page: 1, per_page: 20 });
    await h.page.keyboard.press('Escape');
    await expect.poll(view).toBe('idle');
  });

  it('with the service cut: the customer from the cache "as of", the check by the cache, the queued redemption, a scanned card', async () => {
    await h.stopSandbox();
    await typeOnDisplay('0501234567');
    await display.getByTestId('display-submit').click();
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);
    await expect.poll(view).toBe('customer');
    expect(await display.getByTestId('display-as-of').textContent()).toMatch(/^as of \d{1,2}:\d{2}/);
    await checkState('offline-customer');
    await checkCode(h.page, layla.rewards.availableProduct, layla.phone);
    await expect.poll(view).toBe('check');
    expect(await displayText()).toContain('Your card is updated when the till reconnects.');
    await checkState('offline-check');
    await h.page.locator('#order-reference').fill('POS-DISPLAY-2');
    await h.page.getByTestId('redeem-confirm').click();
    await h.page.getByTestId('queued').waitFor();
    await expect.poll(view).toBe('redeemed');
    expect(await displayText()).toContain('Your card is updated when the till reconnects.');
    await checkState('offline-queued');
    await h.page.getByTestId('next-customer').click();
    await expect.poll(view).toBe('idle');
    // A loyalty card scanned offline: its holder from the cache's serials.
    const searchesBefore = h.bridgeCalls.filter((call) => call.channel === CHANNELS.searchCustomers).length;
    await scannerBurst(h.page, laylaRecord.cards[0]!.serial_number);
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);
    await expect.poll(view).toBe('customer');
    expect(await display.getByTestId('display-as-of').textContent()).toMatch(/^as of /);
    expect(h.bridgeCalls.filter((call) => call.channel === CHANNELS.searchCustomers).length).toBe(searchesBefore);
    await h.page.keyboard.press('Escape');
    await expect.poll(view).toBe('idle');
    await h.restartSandbox();
  });

  it('at most five entries a minute, then a wait is shown', async () => {
    // Three entries were made above; two more are taken, the sixth waits.
    for (let i = 0; i < 2; i++) {
      await typeOnDisplay(`05099900${10 + i}`);
      await display.getByTestId('display-submit').click();
      await expect.poll(view).toBe('not-found');
      await h.page.keyboard.press('Escape');
      await expect.poll(view).toBe('idle');
    }
    await typeOnDisplay('0509990020');
    await display.getByTestId('display-submit').click();
    await expect.poll(() => display.getByTestId('display-wait').textContent()).toMatch(/Try again in \d+ s/);
    expect(await display.locator('.display-keypad button').first().isDisabled()).toBe(true);
    await checkState('wait');
  });

  it('the states the flows above pass through too quickly to check: looking up, and a refusal', async () => {
    const base = models.at(-1)!;
    const reward = {
      name: 'Free coffee',
      description: null,
      products: { quantity: 1, choices: 2 },
      expiresOn: null,
      expiresThisWeek: false,
    };
    // As the till's page sends them (the same channel, the same checks), one after the other.
    await h.call('showOnDisplay', { ...base, view: { kind: 'looking-up' }, revision: base.revision + 1 });
    await expect.poll(view).toBe('looking-up');
    await checkState('looking-up');
    await h.call('showOnDisplay', { ...base, view: { kind: 'refused', reward }, revision: base.revision + 2 });
    await expect.poll(view).toBe('refused');
    expect(await displayText()).toContain('This reward was already used.');
    await checkState('refused');
    await h.call('showOnDisplay', { ...base, view: { kind: 'idle' }, revision: base.revision + 3 });
    await expect.poll(view).toBe('idle');
  });

  it('no pushed model and no DOM held a phone, email, birthday, reward code, id or order reference', async () => {
    expect(models.length).toBeGreaterThan(10);
    const forbidden = [
      '501234567',
      '50 123 4567',
      laylaRecord.email,
      laylaRecord.birthday,
      layla.id,
      ...laylaRecord.cards.flatMap((card) => [card.id, card.serial_number]),
      'POS-DISPLAY',
      '509990',
    ];
    for (const text of [...models.map((model) => JSON.stringify(model)), ...doms]) {
      for (const secret of forbidden) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/RW-[A-Z0-9]+/i);
    }
    // Nothing of its own kept: no IndexedDB, no storage, one page of history.
    expect(
      await display.evaluate(async () => ({
        databases: (await indexedDB.databases()).length,
        local: localStorage.length,
        session: sessionStorage.length,
        history: history.length,
      })),
    ).toEqual({ databases: 0, local: 0, session: 0, history: historyAtStart });
  });

  it('opened in the till’s own browser, its page reaches neither the till’s database nor its socket', async () => {
    // As a cashier opens it: the same browser, the same profile as the till's page.
    const tillDatabases = await h.page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
    expect(tillDatabases).toContain('loyalty-till-offline');
    // Settings learns the display's address from the main process: not the till's, with another secret.
    expect(await h.call('displayAddress')).toEqual({ ok: true, data: { address: h.till.displayUrl } });
    const tillSocket = `${h.till.appUrl.replace(/^http:/, 'ws:').replace(/index\.html$/, '')}__till/socket`;
    const beside = await h.context.newPage();
    try {
      await beside.goto(h.till.displayUrl);
      await beside.locator('.display[data-view]').waitFor();
      // Another origin than the till's, so another IndexedDB: the till's is not listed...
      expect(new URL(beside.url()).origin).not.toBe(new URL(h.till.appUrl).origin);
      expect(await beside.evaluate(async () => (await indexedDB.databases()).map((db) => db.name))).toEqual([]);
      // ...and opened by its name it is a new, empty database, none of the till's stores.
      const opened = await beside.evaluate(
        (name) =>
          new Promise<{ created: boolean; stores: string[] }>((resolve, reject) => {
            let created = false;
            const request = indexedDB.open(name);
            request.onupgradeneeded = (event) => (created = event.oldVersion === 0);
            request.onerror = () => reject(request.error);
            request.onsuccess = () => {
              const db = request.result;
              const stores = [...db.objectStoreNames];
              db.close();
              // Leave the display's origin as it was: nothing kept.
              indexedDB.deleteDatabase(name).onsuccess = () => resolve({ created, stores });
            };
          }),
        'loyalty-till-offline',
      );
      expect(opened).toEqual({ created: true, stores: [] });
      // The till's bridge socket, even with the till's secret given to it, does not open from the display's page.
      const socket = await beside.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            try {
              const attempt = new WebSocket(url);
              attempt.onopen = () => resolve('open');
              attempt.onerror = () => resolve('refused');
            } catch {
              resolve('refused');
            }
          }),
        tillSocket,
      );
      expect(socket).toBe('refused');
      // Nor from the display's origin outside a page (no CSP to stop it first): the till's guard refuses it.
      const { WebSocket: NodeWebSocket } = await import('ws');
      const status = await new Promise<number | 'open'>((resolve, reject) => {
        const attempt = new NodeWebSocket(tillSocket, { origin: new URL(h.till.displayUrl).origin });
        attempt.on('open', () => {
          attempt.close();
          resolve('open');
        });
        attempt.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        attempt.on('error', reject);
      });
      expect(status).toBe(403);
      // The till's page is untouched: its database still has its stores.
      expect(await h.page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name))).toContain(
        'loyalty-till-offline',
      );
    } finally {
      await beside.close();
    }
  });
});

describe('a customer display opened after the till last changed', () => {
  let h: Harness;
  let displayContext: BrowserContext;
  beforeAll(async () => {
    h = await startHarness({ requestTimeoutMs: 2000 });
    await h.configureService();
    await h.openApp();
  });
  afterAll(async () => {
    await displayContext?.close();
    await h?.close();
  });

  it('blanks on the cashier’s key, though the till has not pushed since it opened', async () => {
    // The till's last model went out before any display was open: it has heard of none yet.
    displayContext = await h.context.browser()!.newContext({ viewport: DISPLAY_SIZES[0], locale: 'en-GB' });
    const display = await displayContext.newPage();
    await display.goto(h.till.displayUrl);
    await display.locator('.display[data-view="idle"]').waitFor();
    await h.page.keyboard.press('F10');
    await expect.poll(() => display.locator('.display').getAttribute('data-view')).toBe('blank');
  });
});
