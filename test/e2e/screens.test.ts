import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import { scannerBurst, startHarness, type Harness } from './harness';
import { axeViolations, horizontalOverflow, shoot, SIZES, sizeProblems, THEMES, useTheme } from './screen-checks';

const { layla, omar } = DEMO_FIXTURES;

/**
 * The counter as a cashier walks it: every main screen in light and dark at 1366x768,
 * 1024x768 and 800x600 (screenshots in test-output/screenshots), axe-core with no violation,
 * touch targets and type sizes at 1024x768, no sideways scrolling at 800x600; and the keys a
 * cashier presses from a scan or a phone search to "Redeemed".
 */
describe('every main screen, and the keys to a redeemed reward', () => {
  let h: Harness;
  const findings: string[] = [];

  beforeAll(async () => {
    h = await startHarness();
    await h.openApp();
  });
  afterAll(async () => {
    await h?.page.setViewportSize({ width: 1366, height: 768 });
    await h?.close();
  });

  const screenName = () => h.page.locator('main').getAttribute('data-screen');
  const focusedTestId = () => h.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

  /** Looks at the screen on show every way, then puts the window back as the walk had it. */
  async function everyWay(name: string): Promise<void> {
    const page = h.page;
    const focused = await page.evaluate(
      () => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.id ?? null,
    );
    for (const theme of THEMES) {
      await useTheme(page, theme);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
        await shoot(page, name, theme, size);
        if (size.width === 1024) {
          for (const problem of await sizeProblems(page))
            findings.push(`${name} ${theme} 1024x768: ${problem.what} is ${problem.problem}`);
          for (const v of await axeViolations(page))
            findings.push(`${name} ${theme}: axe ${v.id} (${v.impact}) at ${v.nodes.join(', ')}`);
        }
        if (size.width === 800) {
          const overflow = await horizontalOverflow(page);
          if (overflow > 0) findings.push(`${name} ${theme} 800x600: scrolls sideways by ${overflow} px`);
        }
      }
    }
    await useTheme(page, 'light');
    await page.setViewportSize({ width: 1366, height: 768 });
    expect(
      await page.evaluate(
        () => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.id ?? null,
      ),
    ).toBe(focused);
  }

  function expectNoFindings(): void {
    const found = findings.splice(0);
    expect(found).toEqual([]);
  }

  it('first run', async () => {
    await expect.poll(() => h.page.locator('h1').textContent()).toBe('Welcome to Loyalty Till');
    await everyWay('01-first-run');
    expectNoFindings();
    await h.configureService();
    await h.openApp();
    await expect.poll(screenName).toBe('find');
    await everyWay('02-find-empty');
    expectNoFindings();
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
    expect(h.sandbox.redemptions().filter((r) => r.code === remaining)).toMatchObject([
      { order_reference: 'POS-2002' },
    ]);
    await page.keyboard.press('Enter');
    await expect.poll(screenName).toBe('find');
  });

  it('the register form shows every error at once and puts the cursor on the first', async () => {
    const page = h.page;
    await page.getByRole('button', { name: 'Register new' }).click();
    await expect.poll(screenName).toBe('register');
    await page.locator('#phone').fill('12');
    await page.locator('#email').fill('not-an-email');
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => page.locator('.field-error').count()).toBe(3);
    expect(await page.locator('#name-error').textContent()).toContain('name');
    expect(await page.locator('#email-error').textContent()).toContain('email');
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
    const save = await page.getByRole('button', { name: 'Save settings' }).boundingBox();
    expect(save && save.y + save.height).toBeLessThanOrEqual(768);
    await page.keyboard.press('F8');
    await expect.poll(screenName).toBe('outbox');
    await everyWay('10-outbox');
    expectNoFindings();
  });

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
});
