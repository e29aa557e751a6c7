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

  it('says so in the header, answers from the cache and says so, and explains what needs the service', async () => {
    const { page } = h;
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Connected');
    await h.stopSandbox();

    // The box already holds the last search, so Enter opens its highlighted result: the
    // service is gone, so the till's cache answers, and the screen says how old it is.
    await page.locator('#search').fill(layla.name);
    await page.locator('#search').press('Enter');
    await expect
      .poll(() => page.getByTestId('customer-cache-note').textContent())
      .toContain('The loyalty service can’t be reached: shown from the cache of');
    expect(await page.getByTestId('customer-name').textContent()).toBe(layla.name);
    await expect.poll(() => page.getByTestId('connection').textContent()).toContain('Service unreachable');
    await h.screenshot('30-service-down');

    // A correction needs the service: it says so where the cashier was working, and keeps what was typed.
    await page.keyboard.press('F4');
    await page.locator('#name').fill('Layla Haddad-Corrected');
    await page.getByRole('button', { name: 'Save corrections' }).click();
    await expect.poll(() => errorNotice().textContent()).toContain('Can’t reach the loyalty service.');
    expect(await errorNotice().getAttribute('data-error-kind')).toBe('offline');
    expect(await errorNotice().textContent()).toContain('Check the till’s network connection');
    expect(await page.locator('#name').inputValue()).toBe('Layla Haddad-Corrected');
  });

  it('will not accept a reward code it cannot verify offline, and keeps the code typed', async () => {
    const { page } = h;
    await page.keyboard.press('F3');
    await page.locator('#reward-code').fill(layla.rewards.availableProduct);
    await page.locator('#reward-phone').fill(layla.phone);
    await page.locator('#reward-phone').press('Enter');
    // Layla's rewards were never fetched while the service was up: the cache cannot vouch for the code.
    await expect.poll(() => page.getByTestId('offline-refusal').textContent()).toContain('cannot be verified offline');
    expect(await page.getByTestId('redeem-confirm').count()).toBe(0);
    expect(await page.locator('#reward-code').inputValue()).toBe(layla.rewards.availableProduct);
    await h.screenshot('31-reward-check-offline');
  });
});
