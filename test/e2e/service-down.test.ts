import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import { startHarness, type Harness } from './harness';

const { layla } = DEMO_FIXTURES;

describe('when the loyalty service misbehaves or is down', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    await h.configureService();
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function search(text: string): Promise<void> {
    await h.page.keyboard.press('F2');
    await h.page.locator('#search').fill(text);
    await h.page.getByRole('button', { name: 'Search', exact: true }).click();
  }

  const errorNotice = () => h.page.locator('.notice--error');

  it('explains a service error and a busy service in words, not codes', async () => {
    h.sandbox.faults.set({ errorRate: 1 });
    await search(layla.name);
    await expect.poll(() => errorNotice().textContent()).toContain('The loyalty service had a problem.');
    expect(await errorNotice().getAttribute('data-error-kind')).toBe('server');

    h.sandbox.faults.set({ errorRate: 0, rateLimitRate: 1, retryAfterSeconds: 30 });
    await search(layla.name);
    await expect.poll(() => errorNotice().textContent()).toContain('The loyalty service is busy.');
    expect(await errorNotice().textContent()).toContain('Try again in 30 seconds.');
    h.sandbox.faults.reset();

    await search(layla.name);
    await expect.poll(() => h.page.locator('.result__name').allTextContents()).toEqual([layla.name]);
    expect(await errorNotice().count()).toBe(0);
  });

  it('says so in plain words, in the header and where the cashier was working, and keeps what was typed', async () => {
    const { page } = h;
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Connected');
    await h.stopSandbox();

    // The box already holds the last search, so Enter opens its highlighted result: the
    // failure of that call must show here, on the screen the cashier is still looking at.
    await page.locator('#search').fill(layla.name);
    await page.locator('#search').press('Enter');
    await expect.poll(() => errorNotice().textContent()).toContain('Can’t reach the loyalty service.');
    expect(await errorNotice().getAttribute('data-error-kind')).toBe('offline');
    expect(await errorNotice().textContent()).toContain('Check the till’s network connection');
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Service unreachable');
    expect(await page.locator('#search').inputValue()).toBe(layla.name);
    await h.screenshot('30-service-down');
  });

  it('says the same when checking a reward, rather than anything about the code', async () => {
    const { page } = h;
    await page.keyboard.press('F3');
    await page.locator('#reward-code').fill(layla.rewards.availableProduct);
    await page.locator('#reward-phone').fill(layla.phone);
    await page.locator('#reward-phone').press('Enter');
    await expect.poll(() => errorNotice().textContent()).toContain('Can’t reach the loyalty service.');
    expect(await page.locator('#reward-code').inputValue()).toBe(layla.rewards.availableProduct);
    await h.screenshot('31-reward-check-offline');
  });
});
