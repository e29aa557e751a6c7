import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import { CHANNELS } from '../../common/contract';
import { scannerBurst, startHarness, type Harness } from './harness';

const { layla, omar } = DEMO_FIXTURES;
const BRANCH_ID = '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b';

describe('checking and redeeming rewards, and the barcode scanner', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    await h.configureService();
    const branch = await h.call('updateSettings', { branchId: BRANCH_ID });
    if (!branch.ok) throw new Error(branch.error.message);
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

  async function openCustomer(phone: string, name: string): Promise<void> {
    await h.page.keyboard.press('F2');
    await h.page.locator('#search').fill(phone);
    await h.page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => h.page.locator('.result__name').allTextContents()).toEqual([name]);
    await h.page.locator('#search').focus();
    await h.page.locator('#search').press('Enter');
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(name);
  }

  /** A person at the keyboard: the same keys, well over 100 ms apart. */
  async function humanTyping(text: string): Promise<void> {
    for (const char of text) {
      await h.page.keyboard.press(char);
      await sleep(130);
    }
    await h.page.keyboard.press('Enter');
  }

  const rewardState = () => h.page.locator('[data-testid="reward-result"] [data-testid="reward-state"]').textContent();
  const focusedTestId = () => h.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
  const focusedField = () =>
    h.page.evaluate(() => (document.activeElement instanceof HTMLInputElement ? document.activeElement.id : null));

  it('checks a code for the customer on screen, changing nothing', async () => {
    await openCustomer(layla.phoneShown, layla.name);
    await h.page.keyboard.press('F3');
    await expect.poll(() => h.page.getByTestId('reward-customer').textContent()).toContain(layla.name);
    await h.page.locator('#reward-code').fill(layla.rewards.availablePoints.toLowerCase());
    await h.page.locator('#reward-code').press('Enter');
    await expect.poll(rewardState).toBe('Available');
    const result = await h.page.getByTestId('reward-result').textContent();
    expect(result).toContain('Breakfast for points');
    expect(result).toContain('Costs50 points from the card');
    await h.settled(); // whatever the check set going has finished
    expect(h.sandbox.redemptions()).toHaveLength(0);
    // Once a check says it can be used, the confirmation is next: Enter redeems.
    await expect.poll(focusedTestId).toBe('redeem-confirm');
    expect(await h.page.getByTestId('redeem-confirm').textContent()).toContain('Order paid — redeem');
    expect(await h.page.locator('#paid').count()).toBe(0);
    await h.screenshot('20-reward-check');
  });

  it('redeems on "Order paid — redeem", with the order reference and branch, exactly once on a double click', async () => {
    await h.page.locator('#order-reference').fill('POS-1001');
    await h.page.locator('#order-reference').press('Enter'); // moves on to the confirmation, sends nothing
    await expect.poll(focusedTestId).toBe('redeem-confirm');
    await h.settled();
    expect(h.sandbox.redemptions()).toHaveLength(0);
    const redeemRequests = () => h.bridgeCalls.filter((call) => call.channel === CHANNELS.redeemReward).length;
    const requestsBefore = redeemRequests();

    await h.page.getByTestId('redeem-confirm').dblclick();
    await h.page.getByTestId('redeemed').waitFor();
    // The second click's redemption, had it been started, has been sent and answered by now.
    await h.settled();
    // One request: the service would refuse a second one, so its record alone cannot tell.
    expect(redeemRequests() - requestsBefore).toBe(1);

    const sent = h.sandbox.redemptions().filter((r) => r.code === layla.rewards.availablePoints);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ order_reference: 'POS-1001', branch_id: BRANCH_ID, customer_id: layla.id });
    const redeemed = await h.page.getByTestId('redeemed').textContent();
    expect(redeemed).toContain('Redeemed: Breakfast for points');
    expect(redeemed).toContain('Hand over:');
    expect(redeemed).toContain('for order POS-1001');
    // Success is not dressed as failure: no red "Used on" badge, no red notice.
    expect(await h.page.locator('[data-testid="reward-state"]').count()).toBe(0);
    expect(await h.page.locator('.notice--error').count()).toBe(0);
    // The points reward cost 50: the card after redemption shows what the service now holds.
    const customer = await h.call('getCustomer', { id: layla.id });
    if (!customer.ok) throw new Error(customer.error.message);
    const card = customer.data.cards.find((c) => c.program.name === 'Coffee Club');
    expect(await h.page.locator('[data-testid="redeemed"] [data-testid="card-points"]').textContent()).toBe(
      String(card?.points),
    );
    await h.page.evaluate(() => window.getSelection()?.removeAllRanges()); // the double click selected text
    await expect.poll(focusedTestId).toBe('next-customer');
    await h.screenshot('21-redeemed');

    // Enter on "Next customer": back to an empty Find, nothing sent again.
    await h.page.keyboard.press('Enter');
    await expect.poll(() => h.page.locator('main').getAttribute('data-screen')).toBe('find');
    expect(await h.page.locator('#search').inputValue()).toBe('');
    await h.settled();
    expect(h.sandbox.redemptions().filter((r) => r.code === layla.rewards.availablePoints)).toHaveLength(1);
    expect(redeemRequests() - requestsBefore).toBe(1);
  });

  it('explains a refused second redemption with the date it was used', async () => {
    await openCustomer(layla.phoneShown, layla.name);
    await h.page.keyboard.press('F3');
    await h.page.locator('#reward-code').fill(layla.rewards.availableProduct);
    await h.page.locator('#reward-code').press('Enter');
    await expect.poll(rewardState).toBe('Available');
    // Meanwhile another till redeems the same code.
    const other = await h.call('redeemReward', { reward_code: layla.rewards.availableProduct, phone: layla.phone });
    expect(other.ok).toBe(true);
    await h.page.locator('#order-reference').fill('POS-1002');
    await h.page.getByTestId('redeem-confirm').click();
    const note = h.page.getByTestId('unavailable-note');
    await expect.poll(() => note.textContent()).toMatch(/This reward was already used on \d{1,2} [A-Z][a-z]{2} \d{4}/);
    expect(await h.page.getByTestId('redeem-confirm').count()).toBe(0);
    expect(h.sandbox.redemptions().filter((r) => r.code === layla.rewards.availableProduct)).toHaveLength(1);
    await h.screenshot('22-redeem-refused');
  });

  it('asks for the phone when no customer is on screen, and says plainly when a code was used', async () => {
    await h.page.keyboard.press('F2');
    await h.page.keyboard.press('F3');
    await h.page.locator('#reward-code').fill(layla.rewards.redeemed);
    await h.page.locator('#reward-phone').fill('0501234567');
    await h.page.locator('#reward-phone').press('Enter');
    await expect.poll(rewardState).toMatch(/^Used on /);
    expect(await h.page.getByTestId('redeem-confirm').count()).toBe(0);

    await h.page.locator('#reward-code').fill('RW-NOSUCHCODE');
    await h.page.locator('#reward-code').press('Enter');
    await expect
      .poll(() => h.page.locator('.notice--error').textContent())
      .toContain('No reward with this code for this phone number');
    await h.screenshot('23-reward-not-found');
  });

  it('opens the reward check from a scanner burst on a screen with no focused field', async () => {
    await openCustomer(omar.phone, omar.name);
    expect(await focusedField()).toBeNull();
    await scannerBurst(h.page, omar.reward);
    await expect.poll(() => h.page.locator('main').getAttribute('data-screen')).toBe('reward');
    expect(await h.page.locator('#reward-code').inputValue()).toBe(omar.reward);
    await expect.poll(() => h.page.getByTestId('reward-customer').textContent()).toContain(omar.name);
    await expect.poll(rewardState).toBe('Available');
    await h.screenshot('24-scanned-reward');
  });

  it('routes a scanned phone to its customer and leaves nothing in the focused search box', async () => {
    await h.page.keyboard.press('F2');
    await h.page.locator('#search').fill('');
    await expect.poll(focusedField).toBe('search');
    await scannerBurst(h.page, layla.phone);
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);
    await h.page.keyboard.press('Escape');
    await expect.poll(focusedField).toBe('search');
    // The box shows the number that was looked up, in grouped form, not the raw scanned keys.
    expect(await h.page.locator('#search').inputValue()).toBe(layla.phoneShown);
  });

  it('does not take slow human typing for a scan', async () => {
    await h.page.keyboard.press('F2');
    await h.page.locator('#search').fill('');
    await expect.poll(focusedField).toBe('search');
    await humanTyping(layla.phone);
    // A typed number is searched, shown as a result, and stays in the box; nothing is opened.
    await expect.poll(() => h.page.locator('.result__name').allTextContents()).toEqual([layla.name]);
    expect(await h.page.locator('main').getAttribute('data-screen')).toBe('find');
    expect(await h.page.locator('#search').inputValue()).toBe(layla.phone);
  });

  it('leaves a phone scanned into the register form’s phone field where it was scanned', async () => {
    await h.page.keyboard.press('F2');
    await h.page.getByRole('button', { name: 'Register new' }).click();
    await h.page.locator('#phone').fill(''); // "Register new" carried over the number in the search box
    await scannerBurst(h.page, '+447400123456');
    await expect.poll(() => h.page.locator('#phone').inputValue()).toBe('+447400123456');
    expect(await h.page.locator('main').getAttribute('data-screen')).toBe('register');
    expect(await h.page.locator('#name').inputValue()).toBe(''); // and nothing was submitted
    expect(await h.page.locator('#name-error').count()).toBe(0);
  });
});
