import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import { SERVICE_KEY, startHarness, type Harness } from './harness';

describe('first run, the demo, and connecting to a service', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows the welcome screen with "Try the demo" when nothing is configured', async () => {
    const { page } = h;
    await expect.poll(() => page.locator('h1').textContent()).toBe('Welcome to Loyalty Till');
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Not set up');
    // Keyboard first: the demo button has focus, Enter starts it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Try the demo');
    await h.screenshot('01-first-run');
  });

  it('starts the demo, shows demo mode in the header and finds a demo customer', async () => {
    const { page } = h;
    await page.keyboard.press('Enter');
    await page.locator('#search').waitFor();
    await expect.poll(() => page.getByTestId('demo-badge').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Connected');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('search');
    // fill(), not keyboard.type(): Playwright types as fast as a barcode scanner.
    await page.locator('#search').fill('Layla Haddad');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.result__name').first().textContent()).toBe(DEMO_FIXTURES.layla.name);
    await h.screenshot('04-demo-find');
  });

  it('connects to a service from Settings; the key is shown only by its last four characters', async () => {
    const { page, sandbox } = h;
    await page.keyboard.press('F9');
    await page.locator('#base-url').fill(sandbox.url);
    await page.locator('#api-key').fill(SERVICE_KEY);
    await page.locator('#till-name').fill('Till 2');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByTestId('key-status').textContent()).toContain('set, ending in 4821');
    await expect.poll(() => page.locator('#api-key').inputValue()).toBe('');
    await expect.poll(() => page.getByTestId('demo-badge').count()).toBe(0);
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Connected');
    expect(await page.content()).not.toContain(SERVICE_KEY);
    await h.screenshot('02-settings');

    const state = await h.call('getState');
    expect(state.ok && state.data.mode).toBe('service');
  });

  it('refuses a bad service URL beside its field, keeping what was typed', async () => {
    const { page } = h;
    await page.locator('#base-url').fill('ftp://nowhere');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.locator('#base-url-error').textContent()).toBeTruthy();
    expect(await page.locator('#base-url').inputValue()).toBe('ftp://nowhere');
    await h.screenshot('03-settings-error');
  });
});
