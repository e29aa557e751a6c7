import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import { startHarness, type Harness } from './harness';
import { axeViolations, shoot, sizeProblems } from './screen-checks';

const { omar, soren } = DEMO_FIXTURES;

/** A name that starts in Arabic script and goes on in Latin: it must read right to left as a whole. */
const MIXED_NAME = 'عمر Al-Farsi';
const MIXED_PHONE = '+971 50 765 4321';

const ARABIC_INDIC = /[٠-٩]/;
const LATIN_DIGIT = /[0-9]/;

/** Arabic screenshots at the two widths a till screen has (test-output/screenshots). */
const ARABIC_SIZES = [
  { width: 1366, height: 768 },
  { width: 1024, height: 768 },
] as const;

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
}

/** Whether `a` sits on the inline-end side of `b`: to its right in LTR, to its left in RTL. */
function onInlineEnd(a: Box, b: Box, dir: 'ltr' | 'rtl'): boolean {
  const center = (r: Box) => r.x + r.width / 2;
  return dir === 'ltr' ? center(a) > center(b) : center(a) < center(b);
}

/** The direction an element is laid out in, as the browser resolved it (dir="auto" included). */
const resolvedDirection = (locator: Locator) => locator.evaluate((el) => (el.matches(':dir(rtl)') ? 'rtl' : 'ltr'));

/**
 * The main path with the interface in Arabic: the language switched from Settings without a
 * restart, the document right to left, the layout mirrored (the primary action on the
 * inline-end side), names in their own direction, digits as the setting says, screenshots
 * of every main screen at 1366x768 and 1024x768, and axe-core with no violation.
 */
describe('the till in Arabic, right to left', () => {
  let h: Harness;
  const findings: string[] = [];
  /** Where things sit in English, to compare the Arabic layout with. */
  const ltr: Record<string, { a: Box; b: Box }> = {};

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.page.setViewportSize({ width: 1366, height: 768 });
    await h?.close();
  });

  const page = (): Page => h.page;
  const screenName = () => page().locator('main').getAttribute('data-screen');
  const focusedTestId = () => page().evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
  const docLangDir = () => page().evaluate(() => [document.documentElement.lang, document.documentElement.dir]);

  /** Screenshots at both sizes; axe at 1024x768. Leaves the window at 1366x768. */
  async function look(name: string): Promise<void> {
    for (const size of ARABIC_SIZES) {
      await page().setViewportSize(size);
      await page().evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await shoot(page(), `ar-${name}`, 'light', size);
      if (size.width === 1024) {
        for (const v of await axeViolations(page()))
          findings.push(`${name}: axe ${v.id} (${v.impact}) at ${v.nodes.join(', ')}`);
        for (const problem of await sizeProblems(page()))
          findings.push(`${name} 1024x768: ${problem.what} is ${problem.problem}`);
      }
    }
    await page().setViewportSize({ width: 1366, height: 768 });
  }

  function expectNoFindings(): void {
    expect(findings.splice(0)).toEqual([]);
  }

  /** A fresh search (Enter on a box whose results are current would open the highlighted one). */
  async function searchFor(text: string): Promise<void> {
    await page().locator('#search').fill(text);
    await page().locator('.find__row .button--primary').click();
    await page().locator('#search').focus();
  }

  it('welcomes a new till in Arabic when Arabic is chosen', async () => {
    const arabic = await h.call('updateSettings', { language: 'ar' });
    expect(arabic.ok).toBe(true);
    await h.openApp();
    await expect.poll(docLangDir).toEqual(['ar', 'rtl']);
    await expect.poll(() => page().locator('h1').textContent()).toBe('مرحبًا بك في نقطة بيع الولاء');
    // The language pickers are on the first-run screen too.
    expect(await page().locator('#interface-language').inputValue()).toBe('ar');
    await look('00-first-run');
    expectNoFindings();
    // Back to the computer's language (English here) and connected, for the walk below.
    expect((await h.call('updateSettings', { language: null })).ok).toBe(true);
    await h.configureService();
    await h.openApp();
  });

  it('measures the English layout, left to right', async () => {
    await expect.poll(docLangDir).toEqual(['en', 'ltr']);
    await expect.poll(screenName).toBe('find');
    const searchButton = page().locator('.find__row .button--primary');
    ltr.search = { a: await box(searchButton), b: await box(page().locator('#search')) };
    expect(onInlineEnd(ltr.search.a, ltr.search.b, 'ltr')).toBe(true);

    await searchFor(omar.phone);
    await expect.poll(() => page().locator('.result__name').allTextContents()).toEqual([omar.name]);
    await page().keyboard.press('Enter');
    await expect.poll(() => page().getByTestId('customer-name').textContent()).toBe(omar.name);
    ltr.customer = {
      a: await box(page().locator('.customer__head .actions')),
      b: await box(page().getByTestId('customer-name')),
    };
    expect(onInlineEnd(ltr.customer.a, ltr.customer.b, 'ltr')).toBe(true);
    await page().keyboard.press('F2');
    await expect.poll(screenName).toBe('find');
  });

  it('switches to Arabic from Settings, without a restart', async () => {
    // A mark on the window: a reload would lose it.
    await page().evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page().keyboard.press('F9');
    await expect.poll(screenName).toBe('settings');
    await page().locator('#interface-language').selectOption('ar');
    await expect.poll(docLangDir).toEqual(['ar', 'rtl']);
    await expect.poll(() => page().locator('#settings-title').textContent()).toBe('الإعدادات');
    expect(await page().evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect((await h.call('getState')).ok).toBe(true);
    // The choice is kept: a new window opens in Arabic.
    const state = await h.call('getState');
    expect(state.ok && state.data.settings.language).toBe('ar');
    expect(await page().locator('#arabic-digits').inputValue()).toBe('arab');
    // Built as strings, URLs and dialling codes carry Unicode isolates: "https://" must not read "//:https".
    await expect.poll(() => page().locator('#base-url-hint').textContent()).toContain('\u2066https://\u2069');
    expect(await page().locator('#country option:checked').textContent()).toContain('(\u2066+966\u2069)');
    // And they work: inside the Arabic sentence, "https://" is laid out left to right.
    const [first, last] = await page()
      .locator('#base-url-hint')
      .evaluate((el) => {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        let text = walker.nextNode() as Text | null;
        while (text && !text.data.includes('https://')) text = walker.nextNode() as Text | null;
        if (!text) throw new Error('no https:// in the hint');
        const at = text.data.indexOf('https://');
        const range = document.createRange();
        const xOf = (i: number) => {
          range.setStart(text, i);
          range.setEnd(text, i + 1);
          return range.getBoundingClientRect().x;
        };
        return [xOf(at), xOf(at + 'https://'.length - 1)];
      });
    expect(first).toBeLessThan(last!);
    await look('01-settings');
    expectNoFindings();
  });

  it('runs the main path in Arabic: find, customer, check, redeem, outbox', async () => {
    await page().keyboard.press('F2');
    await expect.poll(screenName).toBe('find');
    await expect.poll(() => page().locator('#find-title').textContent()).toBe('البحث عن عميل');
    // The primary action sits on the inline-end side: mirrored from English.
    const searchButton = await box(page().locator('.find__row .button--primary'));
    const searchBox = await box(page().locator('#search'));
    expect(onInlineEnd(searchButton, searchBox, 'rtl')).toBe(true);
    expect(searchButton.x).toBeLessThan(ltr.search!.a.x);
    await look('02-find-empty');

    await searchFor(omar.phone);
    await expect.poll(() => page().locator('.result__name').allTextContents()).toEqual([omar.name]);
    // A Latin name in the Arabic interface keeps its own direction; the phone stays left to right.
    const result = page().locator('.result').first();
    expect(await result.locator('.result__name').getAttribute('dir')).toBe('auto');
    expect(await resolvedDirection(result.locator('.result__name'))).toBe('ltr');
    expect(await result.locator('.result__phone').getAttribute('dir')).toBe('ltr');
    // Points in Arabic-Indic digits, the default for Arabic.
    const points = (await result.locator('.card-points__item strong').first().textContent()) ?? '';
    expect(points).toMatch(ARABIC_INDIC);
    expect(points).not.toMatch(LATIN_DIGIT);
    await look('03-find-results');

    await page().keyboard.press('Enter');
    await expect.poll(() => page().getByTestId('customer-name').textContent()).toBe(omar.name);
    const actions = await box(page().locator('.customer__head .actions'));
    const name = await box(page().getByTestId('customer-name'));
    expect(onInlineEnd(actions, name, 'rtl')).toBe(true);
    expect(actions.x).toBeLessThan(ltr.customer!.a.x);
    expect(await page().getByTestId('customer-phone').locator('bdi').getAttribute('dir')).toBe('ltr');
    expect(await page().locator('#rewards-title').textContent()).toMatch(/^المكافآت المتاحة \([٠-٩]+\)$/);
    await look('04-customer');

    await page().keyboard.press('Enter'); // the first reward's Redeem: checks it
    await expect.poll(focusedTestId).toBe('redeem-confirm');
    await expect
      .poll(() => page().locator('[data-testid="reward-result"] [data-testid="reward-state"]').textContent())
      .toBe('متاحة');
    const code = page().locator('[data-testid="reward-result"] .reward-summary .mono bdi');
    expect(await code.textContent()).toBe(omar.reward);
    expect(await code.getAttribute('dir')).toBe('ltr');
    // The redeem panel leads the reading direction: on the right in Arabic.
    const redeemPanel = await box(page().locator('form.redeem'));
    const resultPanel = await box(page().getByTestId('reward-result'));
    expect(redeemPanel.x).toBeGreaterThan(resultPanel.x);
    expect(await page().getByTestId('redeem-confirm').textContent()).toContain('تم دفع الطلب');
    await look('05-reward-check');

    await page().locator('#order-reference').fill('POS-7001');
    await page().getByTestId('redeem-confirm').click();
    await page().getByTestId('redeemed').waitFor();
    expect(h.sandbox.redemptions().filter((r) => r.code === omar.reward)).toHaveLength(1);
    const redeemed = page().getByTestId('redeemed');
    expect(await redeemed.locator('.outcome__title').textContent()).toMatch(/^تم الاستبدال: /);
    expect(await redeemed.getByTestId('redeemed-order').textContent()).toBe('POS-7001');
    expect(await redeemed.getByTestId('redeemed-order').getAttribute('dir')).toBe('ltr');
    await look('06-redeemed');

    await page().keyboard.press('F8');
    await expect.poll(screenName).toBe('outbox');
    await expect.poll(() => page().locator('#outbox-title').textContent()).toBe('صندوق الصادر');
    expect(await page().getByTestId('count-pending').textContent()).toBe('٠');
    await look('07-outbox');
    expectNoFindings();
  });

  it('shows a mixed-script name right to left, and a Latin one left to right, in the Arabic interface', async () => {
    await page().keyboard.press('F2');
    await expect.poll(screenName).toBe('find');
    await page().locator('.find__row .button:not(.button--primary)').click();
    await expect.poll(screenName).toBe('register');
    expect(await page().locator('#name').getAttribute('dir')).toBe('auto');
    expect(await page().locator('#phone').getAttribute('dir')).toBe('ltr');
    await page().locator('#name').fill(MIXED_NAME);
    await page().locator('#phone').fill(MIXED_PHONE);
    expect(await resolvedDirection(page().locator('#name'))).toBe('rtl');
    await look('08-register');
    await page().locator('form .button--primary').click();
    const heading = page().getByTestId('customer-name');
    await expect.poll(() => heading.textContent()).toBe(MIXED_NAME);
    expect(await heading.getAttribute('dir')).toBe('auto');
    expect(await resolvedDirection(heading)).toBe('rtl');
    // The mixed name reads right to left: its Arabic word is on the right of its Latin one.
    const [arabicWord, latinWord] = await heading.evaluate((el) => {
      const text = el.firstChild as Text;
      const range = document.createRange();
      const rectOf = (from: number, to: number) => {
        range.setStart(text, from);
        range.setEnd(text, to);
        const r = range.getBoundingClientRect();
        return { x: r.x, width: r.width };
      };
      const split = text.data.indexOf(' ');
      return [rectOf(0, split), rectOf(split + 1, text.data.length)];
    });
    expect(arabicWord!.x).toBeGreaterThan(latinWord!.x);
    await look('09-customer-mixed-name');

    await page().keyboard.press('F2');
    await searchFor(MIXED_NAME);
    const mixed = page().locator('.result__name', { hasText: MIXED_NAME });
    await expect.poll(() => mixed.count()).toBe(1);
    expect(await mixed.getAttribute('dir')).toBe('auto');
    expect(await resolvedDirection(mixed)).toBe('rtl');

    await searchFor(soren.phone);
    const latin = page().locator('.result__name', { hasText: soren.name });
    await expect.poll(() => latin.count()).toBe(1);
    expect(await resolvedDirection(latin)).toBe('ltr');
    expectNoFindings();
  });

  it("says the main process's refusals in Arabic: a settings field, a refused POS link", async () => {
    await page().keyboard.press('F9');
    await expect.poll(screenName).toBe('settings');
    const baseUrl = page().locator('#base-url');
    const saved = await baseUrl.inputValue();
    await baseUrl.fill('ftp://loyalty.example.com');
    await page().locator('button[type="submit"][form="settings-form"]').click();
    await expect
      .poll(() => page().locator('#base-url-error').textContent())
      .toContain('يجب أن يبدأ عنوان URL للخدمة بـ');
    expect(await page().locator('#base-url-error').textContent()).toContain('\u2066https://\u2069');
    await baseUrl.fill(saved);
    await page().keyboard.press('Escape');
    await expect.poll(screenName).toBe('find');

    expect(h.deliverLink('loyalty-till://redeem?code=RW-A1')).toMatchObject({ accepted: false });
    await expect.poll(() => page().getByTestId('link-refused').textContent()).toContain('رُفض رابط');
    expect(await page().getByTestId('link-refused').textContent()).toContain('مسار غير معروف');
    // Esc puts the notice away, as in English.
    await page().keyboard.press('Escape');
    await expect.poll(() => page().getByTestId('link-refused').count()).toBe(0);
  });

  it('writes Latin digits when Settings say so, at once', async () => {
    await searchFor(omar.phone);
    await expect.poll(() => page().locator('.result__name').allTextContents()).toEqual([omar.name]);
    const points = page().locator('.result .card-points__item strong').first();
    expect(await points.textContent()).toMatch(ARABIC_INDIC);
    await page().keyboard.press('F9');
    await expect.poll(screenName).toBe('settings');
    await page().locator('#arabic-digits').selectOption('latn');
    await page().keyboard.press('Escape');
    await expect.poll(screenName).toBe('find');
    await expect.poll(() => points.textContent()).toMatch(/^[0-9,]+$/);
    await expect.poll(docLangDir).toEqual(['ar', 'rtl']);
    await look('10-find-latin-digits');
    expectNoFindings();
    // And back to English, still without a restart.
    await page().keyboard.press('F9');
    await page().locator('#interface-language').selectOption('en');
    await expect.poll(docLangDir).toEqual(['en', 'ltr']);
    await expect.poll(() => page().locator('#settings-title').textContent()).toBe('Settings');
  });
});
