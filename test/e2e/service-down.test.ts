import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import { startHarness, type Harness } from './harness';

describe('when the loyalty service is down', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    await h.configureService();
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('says so in plain words, in the header and where the cashier was working, and keeps what was typed', async () => {
    const { page } = h;
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Connected');
    await h.stopSandbox();

    await page.locator('#search').fill(DEMO_FIXTURES.layla.name);
    await page.locator('#search').press('Enter');
    const error = page.locator('.notice--error');
    await expect.poll(() => error.textContent()).toContain('Can’t reach the loyalty service.');
    expect(await error.getAttribute('data-error-kind')).toBe('offline');
    expect(await error.textContent()).toContain('Check the till’s network connection');
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Service unreachable');
    expect(await page.locator('#search').inputValue()).toBe(DEMO_FIXTURES.layla.name);
    await h.screenshot('30-service-down');
  });

  it('says the same when checking a reward, rather than anything about the code', async () => {
    const { page } = h;
    await page.keyboard.press('F3');
    await page.locator('#reward-code').fill(DEMO_FIXTURES.layla.rewards.availableProduct);
    await page.locator('#reward-phone').fill(DEMO_FIXTURES.layla.phone);
    await page.locator('#reward-phone').press('Enter');
    await expect.poll(() => page.locator('.notice--error').textContent()).toContain('Can’t reach the loyalty service.');
    expect(await page.locator('#reward-code').inputValue()).toBe(DEMO_FIXTURES.layla.rewards.availableProduct);
  });
});
