import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ar } from '../../renderer/i18n/messages/ar';
import { en } from '../../renderer/i18n/messages/en';
import { DEMO_FIXTURES, PROGRAMS } from '../../sandbox';
import { CHANNELS } from '../../common/contract';
import { DEFAULT_DB_NAME } from '../../renderer/offline/db/schema';
import { scannerBurst, startHarness, type Harness } from './harness';
import {
  axeViolations,
  chartProblems,
  CHROME_LIMIT_800x600,
  chromeHeight,
  expandablesWithoutMarker,
  focusLeavesModal,
  horizontalOverflow,
  nestedScrolling,
  printProblems,
  SCREENS_DIR,
  shoot,
  shortcutBarLines,
  tillNameCut,
  SIZES,
  sizeProblems,
  THEMES,
  truncatedStateText,
  unisolatedOrMisaligned,
  useTheme,
} from './screen-checks';

const { layla, omar } = DEMO_FIXTURES;
const LANGUAGES = [
  { language: 'en', words: en, prefix: '' },
  { language: 'ar', words: ar, prefix: 'ar-screens-' },
] as const;
const BRANCH_ID = '5c2d7e10-8a4b-4f6c-9d1e-2b3a4c5d6e7f';
const COFFEE_CLUB = PROGRAMS.find((programme) => programme.slug === 'coffee-club')!;
/** A long name beside the number that tells two cashiers apart: the header's and the chart's hardest case. */
const CASHIERS = [
  { name: 'Mohammed Abdulrahman Al-Shamrani', number: 'POS-0042' },
  { name: 'Sara Ali', number: '12' },
];
const LONG_CASHIER = 'Mohammed Abdulrahman Al-Shamrani (POS-0042)';
const PIN = '739164';
/** Points as the interface writes them (Arabic-Indic digits in Arabic, the setting's default). */
const points = (language: string, value: number) =>
  new Intl.NumberFormat(language === 'ar' ? 'ar-u-nu-arab' : 'en-GB').format(value);

/**
 * The checks every shot screen is held to, whatever screen it is: axe-core, touch targets
 * and type sizes at 1024x768, and there the keyboard kept in a modal; at 1024x768 and
 * 800x600 no scrolling inside a page that scrolls, a marker on everything that opens, and
 * names isolated at the start of their row; at every size no sideways scrolling, no state
 * text cut (the connection, the outbox's counts, badges, the cashier's number) and a chart's
 * labels clear of its bars; at 800x600 the chrome under its bound.
 */
async function checkScreen(
  page: Page,
  name: string,
  theme: string,
  size: { width: number; height: number },
): Promise<string[]> {
  const at = `${name} ${theme} ${size.width}x${size.height}`;
  const findings: string[] = [];
  if (size.width === 1024) {
    for (const problem of await sizeProblems(page)) findings.push(`${at}: ${problem.what} is ${problem.problem}`);
    for (const v of await axeViolations(page))
      findings.push(`${at}: axe ${v.id} (${v.impact}) at ${v.nodes.join(', ')}`);
    for (const found of await focusLeavesModal(page)) findings.push(`${at}: ${found}`);
  }
  if (size.width === 1024 || size.width === 800) {
    for (const found of await nestedScrolling(page)) findings.push(`${at}: ${found}`);
    for (const found of await expandablesWithoutMarker(page)) findings.push(`${at}: ${found}`);
    for (const found of await unisolatedOrMisaligned(page)) findings.push(`${at}: ${found}`);
  }
  if (await tillNameCut(page)) findings.push(`${at}: the till's name is cut in the header`);
  const barLines = await shortcutBarLines(page);
  if (barLines > 1) findings.push(`${at}: the shortcut bar takes ${barLines} lines`);
  const overflow = await horizontalOverflow(page);
  if (overflow > 0) findings.push(`${at}: scrolls sideways by ${overflow} px`);
  for (const found of await truncatedStateText(page)) findings.push(`${at}: ${found}`);
  for (const found of await chartProblems(page)) findings.push(`${at}: ${found}`);
  if (size.width === 800) {
    const chrome = await chromeHeight(page);
    if (chrome > CHROME_LIMIT_800x600) findings.push(`${at}: header and shortcut bar take ${chrome} px`);
  }
  return findings;
}

/** Looks at the screen on show every way, then puts the window back as it was, focus included. */
async function everyWayOf(page: Page, name: string, findings: string[]): Promise<void> {
  const focused = await page.evaluate(
    () => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.id ?? null,
  );
  for (const theme of THEMES) {
    await useTheme(page, theme);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await shoot(page, name, theme, size);
      findings.push(...(await checkScreen(page, name, theme, size)));
    }
  }
  await useTheme(page, 'light');
  await page.setViewportSize({ width: 1366, height: 768 });
  // Printed (Print or Save as PDF), any screen is its content alone, within an A4 page.
  for (const found of await printProblems(page)) findings.push(`${name} printed: ${found}`);
  expect(
    await page.evaluate(
      () => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.id ?? null,
    ),
  ).toBe(focused);
}

/**
 * The counter as a cashier walks it, in English and in Arabic: every main screen in light and
 * dark at 1366x768, 1024x768 and 800x600 (screenshots in test-output/screenshots), held to
 * the checks above; and the keys a cashier presses from a scan or a phone search to "Redeemed".
 */
describe.each(LANGUAGES)(
  'every main screen in $language, and the keys to a redeemed reward',
  ({ language, words, prefix }) => {
    let h: Harness;
    const findings: string[] = [];

    beforeAll(async () => {
      h = await startHarness();
      const chosen = await h.call('updateSettings', { language });
      if (!chosen.ok) throw new Error(chosen.error.message);
      await h.openApp();
    });
    afterAll(async () => {
      await h?.page.setViewportSize({ width: 1366, height: 768 });
      await h?.close();
    });

    const screenName = () => h.page.locator('main').getAttribute('data-screen');
    const focusedTestId = () => h.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

    const everyWay = (name: string) => everyWayOf(h.page, `${prefix}${name}`, findings);

    function expectNoFindings(): void {
      const found = findings.splice(0);
      expect(found).toEqual([]);
    }

    it('first run', async () => {
      await expect.poll(() => h.page.locator('h1').textContent()).toBe(words.settingsView.welcome);
      // Nothing promised that does not work yet: no default till name, no scanning "from any screen".
      expect(await h.page.locator('.app-header__till').count()).toBe(0);
      expect(await h.page.locator('.shortcut--scan').count()).toBe(0);
      await everyWay('01-first-run');
      expectNoFindings();
      await h.configureService();
      await h.openApp();
      await expect.poll(screenName).toBe('find');
      expect(await h.page.locator('.app-header__till').textContent()).toBe('Till 2');
      // Find says it can scan in its own words; the bar says it elsewhere, once the till is set up.
      expect(await h.page.locator('.shortcut--scan').count()).toBe(0);
      await h.page.keyboard.press('F7');
      expect(await h.page.locator('.shortcut--scan').textContent()).toBe(words.shortcuts.scanAnywhere);
      await h.page.keyboard.press('F2');
      // Nothing waits in the outbox: the header says no "0 waiting".
      expect(await h.page.getByTestId('header-outbox-pending').count()).toBe(0);
      await everyWay('02-find-empty');
      expectNoFindings();
    });

    it('a search with pages of results', async () => {
      const page = h.page;
      await page.locator('#search').fill('966');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.result__name').count()).toBe(20);
      await everyWay('02b-find-many');
      // The pager is part of the page: reachable by scrolling the one scroller, never under the shortcut bar.
      await page.setViewportSize({ width: 1024, height: 768 });
      await page.locator('.pager').scrollIntoViewIfNeeded();
      const pager = await page.locator('.pager').boundingBox();
      const bar = await page.locator('.shortcut-bar').boundingBox();
      expect(pager && bar && pager.y + pager.height).toBeLessThanOrEqual(bar?.y ?? 0);
      await page.setViewportSize({ width: 1366, height: 768 });
      // Names in Arabic script among Latin ones: each isolated, each at the start of its row.
      await page.locator('#search').fill('عمر');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="results-summary"][data-query="عمر"]').waitFor();
      expect(await page.locator('.result__name').count()).toBeGreaterThan(1);
      await everyWay('02c-find-arabic-names');
      expectNoFindings();
      await page.locator('#search').fill('');
      await page.keyboard.press('F2');
    });

    it('from a phone search to a redeemed reward: Enter, Enter, Enter, Enter', async () => {
      const page = h.page;
      let keys = 0;
      const press = async (key: string) => {
        keys += 1;
        await page.keyboard.press(key);
      };
      await page.locator('#search').fill(layla.phoneShown);
      await press('Enter'); // search
      await expect.poll(() => page.locator('.result__name').allTextContents()).toEqual([layla.name]);
      await everyWay('03-find-results');
      await press('Enter'); // open
      await expect.poll(() => page.getByTestId('customer-name').textContent()).toBe(layla.name);
      // Rewards first: every reward's Redeem is above the fold at 1024x768.
      await page.setViewportSize({ width: 1024, height: 768 });
      const redeemButtons = page.locator('[data-redeem]');
      await expect.poll(() => redeemButtons.count()).toBe(2);
      for (const box of await Promise.all((await redeemButtons.all()).map((b) => b.boundingBox()))) {
        expect(box && box.y + box.height).toBeLessThanOrEqual(768);
      }
      await page.setViewportSize({ width: 1366, height: 768 });
      await everyWay('04-customer');
      await press('Enter'); // the first reward's Redeem: checks it
      await expect.poll(focusedTestId).toBe('redeem-confirm');
      await everyWay('05-reward-check');
      await press('Enter'); // Order paid — redeem
      await page.getByTestId('redeemed').waitFor();
      expect(keys).toBeLessThanOrEqual(4);
      expect(h.sandbox.redemptions()).toHaveLength(1);
      await expect.poll(focusedTestId).toBe('next-customer');
      // On the outcome Esc is "next customer", and the bar says so.
      expect(await page.locator('.shortcut-bar').textContent()).toContain(words.shortcuts.nextCustomer);
      await everyWay('06-redeemed');
      expectNoFindings();

      await page.keyboard.press('Enter'); // Next customer
      await expect.poll(screenName).toBe('find');
      await expect.poll(() => page.getByTestId('recent-customers').textContent()).toContain(layla.name);
      await everyWay('07-find-recent');
      expectNoFindings();
    });

    it('from the end of a code scan to "Redeemed": one key without an order reference', async () => {
      const page = h.page;
      await page.locator('#search').fill(omar.phone);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.result__name').allTextContents()).toEqual([omar.name]);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('customer-name').textContent()).toBe(omar.name);
      await scannerBurst(page, omar.reward);
      await expect.poll(focusedTestId).toBe('redeem-confirm');
      await page.keyboard.press('Enter'); // the one key
      await page.getByTestId('redeemed').waitFor();
      expect(h.sandbox.redemptions().filter((r) => r.code === omar.reward)).toHaveLength(1);
      await page.keyboard.press('Escape'); // Esc, like Enter, is "next customer"
      await expect.poll(screenName).toBe('find');
      expect(await page.locator('#search').inputValue()).toBe('');
    });

    it('two keys or fewer with an order reference scanned', async () => {
      const page = h.page;
      // The shift's customers are one key away.
      const recentIndex = (await page.locator('.recent__name').allTextContents()).indexOf(layla.name);
      expect(recentIndex).toBeGreaterThanOrEqual(0);
      await page.keyboard.press(`Alt+${recentIndex + 1}`);
      await expect.poll(() => page.getByTestId('customer-name').textContent()).toBe(layla.name);
      const remaining = (await page.locator('.reward-list__item [data-code]').first().getAttribute('data-code')) ?? '';
      await scannerBurst(page, remaining);
      await expect.poll(focusedTestId).toBe('redeem-confirm');
      await scannerBurst(page, 'POS-2002');
      await expect.poll(() => page.locator('#order-reference').inputValue()).toBe('POS-2002');
      let keys = 0;
      while (keys < 2 && (await page.getByTestId('redeemed').count()) === 0) {
        keys += 1;
        await page.keyboard.press('Enter');
        await h.settled(); // that key's work, if it redeemed, has been answered and shown
      }
      await page.getByTestId('redeemed').waitFor();
      expect(keys).toBeLessThanOrEqual(2);
      // Breakfast costs 50 points: the outcome gives the card's balance with the deduction.
      expect(await page.getByTestId('redeemed-balance').textContent()).toContain(
        words.reward.costAfter.replace('{left}', points(language, 130)).replace('{change}', points(language, -50)),
      );
      expect(h.sandbox.redemptions().filter((r) => r.code === remaining)).toMatchObject([
        { order_reference: 'POS-2002' },
      ]);
      await page.keyboard.press('Enter');
      await expect.poll(screenName).toBe('find');
    });

    it('the register form shows every error at once and puts the cursor on the first', async () => {
      const page = h.page;
      await page.getByRole('button', { name: words.find.registerNew }).click();
      await expect.poll(screenName).toBe('register');
      await page.locator('#phone').fill('12');
      await page.locator('#email').fill('not-an-email');
      await page.getByRole('button', { name: words.customerForm.register, exact: true }).click();
      await expect.poll(() => page.locator('.field-error').count()).toBe(3);
      expect(await page.locator('#name-error').count()).toBe(1);
      expect(await page.locator('#email-error').count()).toBe(1);
      // One message per problem: the phone's hint gives way to its error.
      expect(await page.locator('#phone-hint').count()).toBe(0);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('name');
      await everyWay('08-register-errors');
      expectNoFindings();
      await page.keyboard.press('Escape');
    });

    it('settings and the outbox', async () => {
      const page = h.page;
      await page.keyboard.press('F9');
      await expect.poll(screenName).toBe('settings');
      await everyWay('09-settings');
      // Save stays in sight at 768 px high.
      const save = await page.getByRole('button', { name: words.settingsView.save }).boundingBox();
      expect(save && save.y + save.height).toBeLessThanOrEqual(768);
      // Removing the key asks first, with the safe answer focused.
      await page.getByTestId('remove-key').click();
      await expect.poll(focusedTestId).toBe('remove-key-no');
      await everyWay('09b-settings-remove-key');
      await page.keyboard.press('Enter'); // "Keep the key"
      await expect.poll(() => page.getByTestId('remove-key-confirm').count()).toBe(0);
      expect(await h.call('getState')).toMatchObject({ ok: true, data: { key: { set: true } } });
      await page.keyboard.press('F8');
      await expect.poll(screenName).toBe('outbox');
      await everyWay('10-outbox');
      expectNoFindings();
    });

    it('removes the key only once asked and answered', async () => {
      const page = h.page;
      await page.keyboard.press('F9');
      await page.getByTestId('remove-key').click();
      await page.getByTestId('remove-key-yes').click();
      await expect.poll(() => h.call('getState')).toMatchObject({ ok: true, data: { key: { set: false } } });
      await expect.poll(() => page.getByTestId('remove-key').count()).toBe(0);
      // Back to a till that can reach the service, for what follows.
      await h.configureService();
      await h.openApp();
    });

    it('switches the cashier in two keys, F6 and ↓, and gives the keyboard back where it was', async () => {
      const page = h.page;
      const listed = await h.call('updateSettings', { cashiers: CASHIERS });
      expect(listed.ok).toBe(true);
      await h.openApp();
      await page.keyboard.press('F2');
      await page.locator('#search').fill('Lay');
      let keys = 0;
      for (const key of ['F6', 'ArrowDown']) {
        keys += 1;
        await page.keyboard.press(key);
      }
      await expect.poll(() => page.getByTestId('cashier-select').inputValue()).toBe(LONG_CASHIER);
      expect(keys).toBeLessThanOrEqual(2);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('search');
      expect(await page.locator('#search').inputValue()).toBe('Lay');
      // The number first, so a narrow header cuts the name and never the number.
      expect(await page.locator('[data-testid="cashier-select"] option:checked').textContent()).toBe(
        'POS-0042 · Mohammed Abdulrahman Al-Shamrani',
      );
      await everyWay('15-find-long-cashier');
      expectNoFindings();
      await page.locator('#search').fill('');
    });

    it('opens the report, the Outbox and Settings by touch, and today’s report to a PDF in two keys', async () => {
      const page = h.page;
      await page.keyboard.press('F2');
      // At 800x600 too: the bar's buttons, no keyboard.
      await page.setViewportSize({ width: 800, height: 600 });
      await page.getByTestId('shortcut-F7').click();
      await expect.poll(screenName).toBe('report');
      await page.getByTestId('outbox-button').click();
      await expect.poll(screenName).toBe('outbox');
      await page.getByTestId('shortcut-F9').click();
      await expect.poll(screenName).toBe('settings');
      await page.getByTestId('shortcut-Esc').click();
      await expect.poll(screenName).not.toBe('settings');
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.keyboard.press('F2');
      // F7, then Enter on "Save as PDF", which has focus.
      const calls = h.bridgeCalls.length;
      await page.keyboard.press('F7');
      await expect.poll(focusedTestId).toBe('report-pdf');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => h.bridgeCalls.slice(calls).filter((call) => call.channel === CHANNELS.saveReportPdf).length)
        .toBe(1);
      await page.keyboard.press('F2');
    });

    if (language === 'en')
      it('follows the theme setting over the OS preference, and shows "spent" in the till’s currency', async () => {
        const page = h.page;
        await useTheme(page, 'light');
        const saved = await h.call('updateSettings', { theme: 'dark', currency: 'EUR' });
        expect(saved.ok).toBe(true);
        await h.openApp();
        await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
        const canvas = await page.evaluate(
          () => getComputedStyle(document.body.querySelector('.app-header') as Element).backgroundColor,
        );
        expect(canvas).toBe('rgb(16, 38, 61)');
        await page.locator('#search').fill(layla.phoneShown);
        await page.keyboard.press('Enter');
        await expect.poll(() => page.locator('.result__name').allTextContents()).toEqual([layla.name]);
        await page.keyboard.press('Enter');
        await expect.poll(() => page.getByTestId('card-spent').first().textContent()).toMatch(/^€[\d,]+\.\d{2}$/);
        await h.call('updateSettings', { theme: 'system', currency: null });
      });
  },
);

describe.each(LANGUAGES)('the offline screens in $language', ({ language, words, prefix }) => {
  let h: Harness;
  const findings: string[] = [];
  const everyWay = (name: string) => everyWayOf(h.page, `${prefix}${name}`, findings);

  beforeAll(async () => {
    h = await startHarness({ requestTimeoutMs: 2000 });
    await h.configureService();
    const chosen = await h.call('updateSettings', {
      language,
      branchId: BRANCH_ID,
      allowOfflineRedemption: true,
      programId: COFFEE_CLUB.id,
    });
    if (!chosen.ok) throw new Error(chosen.error.message);
    await h.openApp();
  });
  afterAll(async () => {
    await h?.page.setViewportSize({ width: 1366, height: 768 });
    await h?.close();
  });

  const focusedTestId = () => h.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

  /** Opens a customer by phone, which caches them with their rewards for the offline check. */
  async function open(phone: string, name: string): Promise<void> {
    await h.page.keyboard.press('F2');
    await h.page.locator('#search').fill(phone);
    await h.page.keyboard.press('Enter');
    await expect.poll(() => h.page.locator('.result__name').allTextContents()).toEqual([name]);
    await h.page.keyboard.press('Enter');
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(name);
  }

  /** F3 on the customer's screen, the code, Enter: the check from the cache. */
  async function checkOffline(code: string): Promise<void> {
    await h.page.keyboard.press('F3');
    await h.page.locator('#reward-code').fill(code);
    await h.page.locator('#reward-code').press('Enter');
    await h.page.getByTestId('offline-check').waitFor();
  }

  it('says what to hand over when the check and the redemption are the cache’s word', async () => {
    const page = h.page;
    await open(layla.phone, layla.name);
    await open(omar.phone, omar.name);
    await h.stopSandbox();
    await open(layla.phone, layla.name);
    // On an 800x600 till, as the check puts the focus on the button.
    await page.setViewportSize({ width: 800, height: 600 });
    await checkOffline(layla.rewards.availablePoints);
    await expect.poll(focusedTestId).toBe('redeem-confirm');
    // The cache's "available" is not the service's: its own badge, not the online green.
    const state = page.locator('[data-testid="reward-result"] [data-testid="reward-state"]');
    await expect.poll(() => state.textContent()).toBe(words.rewardSummary.availableOffline);
    // Before the irreversible step, what it costs: Breakfast takes 50 of the Coffee Club card's 180.
    expect(await page.getByTestId('redeem-cost').textContent()).toContain(
      words.reward.cost.replace('{change}', points(language, -50)).replace('{left}', points(language, 130)),
    );
    // With the focus on the button, what the code gives is in sight with it.
    expect(await page.getByTestId('redeem-what').textContent()).toContain('Breakfast');
    const bar = await page.locator('.shortcut-bar').boundingBox();
    for (const what of ['redeem-what', 'redeem-confirm']) {
      const box = await page.getByTestId(what).boundingBox();
      expect(box && bar && box.y >= 0 && box.y + box.height <= bar.y, what).toBe(true);
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    await everyWay('11-offline-check');
    await page.getByTestId('redeem-confirm').click();
    await page.getByTestId('queued').waitFor();
    // Queued, it still says what to hand over: the reward's name and what it gives.
    const queued = (await page.getByTestId('queued').textContent()) ?? '';
    expect(queued).toContain('Breakfast');
    expect(await page.getByTestId('queued-handover').count()).toBe(1);
    await everyWay('12-offline-queued');
    expectNoFindings();
    await page.keyboard.press('Escape');
  });

  it('names the reward, not only its code, in a conflict', async () => {
    const page = h.page;
    await h.otherTillRedeems({ code: omar.reward, phone: omar.phone, orderReference: 'OTHER-TILL-7' });
    h.passTime(1100);
    await open(omar.phone, omar.name);
    await checkOffline(omar.reward);
    const rewardName = (await page.locator('.reward-summary__name').textContent()) ?? '';
    expect(rewardName.length).toBeGreaterThan(0);
    await page.getByTestId('redeem-confirm').click();
    await page.getByTestId('queued').waitFor();
    await page.keyboard.press('Escape');
    await h.restartSandbox();
    await page.keyboard.press('F8');
    await page.getByTestId('retry-now').click();
    const item = page.locator(`[data-testid="outbox-conflict"] [data-code="${omar.reward}"]`);
    await item.waitFor();
    expect(await item.locator('.outbox-item__head').textContent()).toContain(rewardName);
    await everyWay('13-outbox-conflict');
    expectNoFindings();
  });

  it('the report of a shift with waiting, conflict and failed work: on screen, printed and as a PDF', async () => {
    const page = h.page;
    await h.call('updateSettings', { cashiers: CASHIERS });
    await h.openApp();
    await page.getByTestId('cashier-select').selectOption(LONG_CASHIER);
    await addFailedItem(page, LONG_CASHIER);
    await page.keyboard.press('F7');
    await page.getByTestId('report-by-cashier').waitFor();
    // Every table adds up in a totals row; the failed item says why.
    expect(await page.getByTestId('report-by-cashier-total').count()).toBe(1);
    expect(await page.getByTestId('report-by-reward-total').count()).toBe(1);
    await expect.poll(() => page.getByTestId('report-failed-reason').count()).toBe(1);
    expect(await page.getByTestId('report-failed-reason').textContent()).toContain(
      words.shiftReport.failedBecause.replace('{reason}', ''),
    );
    // The header counts all three, and fits.
    await page.getByTestId('header-outbox-failed').waitFor();
    await everyWay('14-report');
    // Yesterday's shift on its own: none of today's work.
    const today = await page.getByTestId('report-period').textContent();
    await page.getByTestId('report-period-yesterday').click();
    await expect.poll(() => page.getByTestId('report-period').textContent()).not.toBe(today);
    expect(await page.getByTestId('report-total-done').textContent()).toBe(points(language, 0));
    await page.getByTestId('report-period-shift').click();
    await expect.poll(() => page.getByTestId('report-total-done').textContent()).toBe(points(language, 1));
    expectNoFindings();

    // The PDF: its text holds the header (till, period, printed at) and the page numbers.
    await page.setViewportSize({ width: 1366, height: 768 });
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    await mkdir(SCREENS_DIR, { recursive: true });
    const file = join(SCREENS_DIR, `screens-report-${language}.pdf`);
    await writeFile(file, pdf);
    execFileSync('pdftoppm', ['-png', '-r', '70', file, join(SCREENS_DIR, `screens-report-${language}-pdf`)]);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    const pages = (text.match(/\f/g) ?? []).length || 1;
    expect(text).toContain('Till 2');
    expect(text).toContain(BRANCH_ID);
    for (const label of ['periodLabel', 'printedAt', 'till', 'branch'] as const)
      expect(text, label).toContain(words.shiftReport[label]);
    // "1 / 2" at the foot of page 1 (pdftotext drops the spaces; right to left it may read "2 / 1").
    const [first, last] = [points(language, 1), points(language, pages)];
    expect(text).toMatch(new RegExp(`${first}\\s*/\\s*${last}|${last}\\s*/\\s*${first}`));
    expect(text).toContain(LONG_CASHIER);
    // Its title names the report, the till and the period, not the app.
    expect(await page.title()).toContain(words.shiftReport.documentTitle.split(',')[0]!.split('،')[0]!.trim());
  });

  it('approves a conflict in three keys and the PIN: a modal that names the item and gives focus back', async () => {
    const page = h.page;
    const set = await h.call('setManagerPin', { pin: PIN });
    expect(set.ok).toBe(true);
    await h.openApp();
    let keys = 0;
    const press = async (key: string) => {
      keys += 1;
      await page.keyboard.press(key);
    };
    await press('F8');
    await expect.poll(focusedTestId).toBe('acknowledge');
    // A failed item names its reward and says why once, in the interface's language.
    const failed = page.locator('[data-testid="outbox-failed"] .outbox-item');
    expect(await failed.locator('.outbox-item__head').textContent()).toContain('Free coffee');
    expect(await failed.getByTestId('item-error').textContent()).toBe(words.errors.validation.title);
    expect(await failed.textContent()).not.toContain('The reward code is not valid.');
    const item = await page.evaluate(() =>
      document.activeElement?.closest('.outbox-item')?.querySelector('.outbox-item__head strong')?.textContent?.trim(),
    );
    await press('Enter');
    await page.getByTestId('manager-pin-dialog').waitFor();
    // Which item it approves; no way round the PIN told to whoever is at the till.
    expect(await page.getByTestId('manager-pin-subject').textContent()).toContain(item);
    expect(await page.getByTestId('manager-pin-dialog').textContent()).not.toContain('manager-pin.json');
    // Enter, ArrowDown and clicks do not reach what is behind it.
    const cashierBefore = await page.getByTestId('cashier-select').inputValue();
    await page.keyboard.press('ArrowDown');
    expect(await page.getByTestId('cashier-select').inputValue()).toBe(cashierBefore);
    await everyWay('16-manager-pin');
    expectNoFindings();
    await page.getByTestId('manager-pin-input').fill(PIN);
    await press('Enter');
    await expect.poll(() => page.getByTestId('manager-pin-dialog').isVisible()).toBe(false);
    expect(keys).toBeLessThanOrEqual(3);
    // Focus is on the screen, never the page's body.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
    // The next one within the approval's minutes: no second PIN, its Acknowledge has focus.
    await expect.poll(() => page.locator('[data-testid="outbox-conflict"] .outbox-item').count()).toBe(0);
    await expect.poll(focusedTestId).toBe('acknowledge');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-testid="outbox-failed"] .outbox-item').count()).toBe(0);
    expect(await page.getByTestId('manager-pin-dialog').isVisible()).toBe(false);
  });

  function expectNoFindings(): void {
    expect(findings.splice(0)).toEqual([]);
  }
});

/**
 * A failed item, as the replayer leaves one when the service refuses a queued redemption for
 * good: a redemption of the outbox copied with the state and error a refusal writes, by
 * `cashier`. The sandbox has no
 * way to refuse a replay that the till's own checks would not have refused first.
 */
async function addFailedItem(page: Page, cashier: string): Promise<void> {
  await page.evaluate(
    async ({ name, cashier }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const rows = await new Promise<Array<Record<string, unknown>>>((resolve) => {
        const read = db.transaction('outbox').objectStore('outbox').getAll();
        read.onsuccess = () => resolve(read.result as Array<Record<string, unknown>>);
      });
      const waiting = rows.find((row) => row.kind === 'redeem');
      if (!waiting) throw new Error('No redemption in the outbox to copy.');
      const error = { kind: 'validation', message: 'The reward code is not valid.' };
      await new Promise<void>((resolve, reject) => {
        const write = db.transaction('outbox', 'readwrite');
        write.objectStore('outbox').put({
          ...waiting,
          seq: 9001,
          // An item of its own: the outbox's ids are unique.
          uid: crypto.randomUUID(),
          idempotencyKey: 'failed-copy-9001',
          code: 'RW-FAILED01',
          state: 'failed',
          cashier,
          lastError: error,
          note: error.message,
          nextAttemptAt: null,
        });
        write.oncomplete = () => resolve();
        write.onerror = () => reject(write.error);
      });
      db.close();
    },
    { name: DEFAULT_DB_NAME, cashier },
  );
  await page.reload();
  await page.locator('main.screen > *').first().waitFor();
}
