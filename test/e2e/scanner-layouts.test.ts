/**
 * A keyboard-wedge scanner under other keyboard layouts, with the interface in Arabic:
 * timestamped CDP key events carrying each layout's `key` and the scanner's key positions
 * (`code`, Shift), as Chromium delivers them from a real scanner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession } from 'playwright-core';
import { DEMO_FIXTURES } from '../../sandbox';
import { LAYOUTS, usStroke } from '../support/keyboard-layouts';
import { startHarness, type Harness } from './harness';

const { layla } = DEMO_FIXTURES;
const SHIFT = 8; // CDP's modifier bit

/** Sends `text` as a US-set-up scanner would, under `layout`, 4–9 ms apart, then `terminator`. */
async function burst(
  cdp: CDPSession,
  layout: keyof typeof LAYOUTS,
  text: string,
  terminator: 'Enter' | 'Tab' = 'Enter',
): Promise<void> {
  const keyOf = LAYOUTS[layout]!;
  let time = Date.now() / 1000;
  const gaps = [4, 7, 9, 5, 8, 6];
  let index = 0;
  const next = () => (time += gaps[index++ % gaps.length]! / 1000);
  for (const char of text) {
    const { code, shift } = usStroke(char);
    const key = keyOf(code, shift);
    const modifiers = shift ? SHIFT : 0;
    const at = next();
    const typed = key === 'Dead' ? {} : { text: key, unmodifiedText: key };
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key, code, modifiers, timestamp: at, ...typed });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, modifiers, timestamp: at + 0.002 });
  }
  const at = next();
  const end =
    terminator === 'Enter'
      ? { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' }
      : { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 };
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...end, timestamp: at });
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: end.key, code: end.code, timestamp: at + 0.002 });
}

describe('scanning under US, Arabic (101), German and French layouts, in the Arabic interface', () => {
  let h: Harness;
  let cdp: CDPSession;

  beforeAll(async () => {
    h = await startHarness();
    await h.configureService();
    const arabic = await h.call('updateSettings', { language: 'ar' });
    if (!arabic.ok) throw new Error(arabic.error.message);
    await h.openApp();
    cdp = await h.page.context().newCDPSession(h.page);
  });
  afterAll(async () => {
    await cdp?.detach().catch(() => undefined);
    await h?.close();
  });

  const screen = () => h.page.locator('main').getAttribute('data-screen');

  it('speaks Arabic right to left', async () => {
    await expect
      .poll(() => h.page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]))
      .toEqual(['ar', 'rtl']);
    expect(await h.cspViolations()).toEqual([]);
  });

  for (const layout of Object.keys(LAYOUTS) as (keyof typeof LAYOUTS)[]) {
    it(`opens the customer from a scanned phone and the reward from a scanned code under ${layout}`, async () => {
      await h.page.keyboard.press('F2');
      await h.page.locator('#search').fill('');
      await h.page.locator('#search').focus();
      await burst(cdp, layout, layla.phone);
      await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);

      await burst(cdp, layout, layla.rewards.availableProduct);
      await expect.poll(screen).toBe('reward');
      expect(await h.page.locator('#reward-code').inputValue()).toBe(layla.rewards.availableProduct);
    });
  }

  it('leaves a machine-speed burst that is not a code or a phone in the field, and its Tab moves on', async () => {
    await h.page.keyboard.press('F2');
    await h.page.locator('#search').fill('');
    await h.page.locator('#search').focus();
    await burst(cdp, 'US', 'ORDER ABC', 'Tab');
    await expect.poll(() => h.page.locator('#search').inputValue()).toBe('ORDER ABC');
    await expect.poll(() => h.page.evaluate(() => document.activeElement?.id ?? '')).not.toBe('search');
    expect(await screen()).toBe('find');
  });
});
