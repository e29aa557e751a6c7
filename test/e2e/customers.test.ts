import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import { PROGRAMS } from '../../sandbox/demo-data';
import { CHANNELS } from '../../common/contract';
import { CONTENT_SECURITY_POLICY } from '../../electron/app-page/content-security-policy';
import { startHarness, type Harness } from './harness';

const { layla, lukasz, soren } = DEMO_FIXTURES;

describe('finding, registering and correcting customers', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    await h.configureService(); // default country SA
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Types like a person (fill, not a key burst a scanner would make) and presses Enter. */
  async function search(text: string): Promise<void> {
    await h.page.keyboard.press('F2');
    await h.page.locator('#search').fill(text);
    await h.page.locator('#search').press('Enter');
    // The answer to this search, not the one still on screen from the last.
    const answered = `[data-query="${text.trim().replace(/"/g, '\\"')}"]`;
    await h.page
      .locator(`[data-testid="results-summary"]${answered}, [data-testid="no-results"]${answered}, .notice--error`)
      .first()
      .waitFor();
  }

  const names = () => h.page.locator('.result__name').allTextContents();

  it('starts on the search box, focused', async () => {
    await expect.poll(() => h.page.evaluate(() => document.activeElement?.id)).toBe('search');
    await h.screenshot('10-find-empty');
  });

  it('finds a customer by a local phone number, read with the till’s country', async () => {
    await h.page.locator('#search').fill('050 123 4567');
    await expect
      .poll(() => h.page.getByTestId('search-hint').textContent())
      .toContain('+966 50 123 4567 (Saudi Arabia)');
    await h.page.locator('#search').press('Enter');
    await expect.poll(names).toEqual([layla.name]);
    expect(await h.page.locator('.result__phone').first().textContent()).toBe(layla.phoneShown);
    expect(await h.page.locator('.result').first().textContent()).toContain('Coffee Club');
  });

  it('finds a customer by an international phone number', async () => {
    await search('+48 501 234 567');
    await expect.poll(names).toEqual([lukasz.name]);
  });

  it('finds customers by part of a name', async () => {
    await search('Østerg');
    await expect.poll(names).toContain(soren.name);
    await h.screenshot('11-find-results');
  });

  it('pages through many results with the keyboard', async () => {
    await search('a');
    const summary = h.page.getByTestId('results-summary');
    await expect.poll(() => summary.textContent()).toMatch(/page 1 of \d+/);
    const firstPage = await names();
    expect(firstPage).toHaveLength(20);
    await h.page.locator('#search').press('PageDown');
    await expect.poll(() => summary.textContent()).toMatch(/page 2 of \d+/);
    const secondPage = await names();
    expect(secondPage.length).toBeGreaterThan(0);
    expect(secondPage).not.toEqual(firstPage);
    await h.page.locator('#search').press('PageUp');
    await expect.poll(() => summary.textContent()).toMatch(/page 1 of \d+/);
    await expect.poll(names).toEqual(firstPage);
  });

  it('opens a customer with the arrow keys and Enter, showing cards and rewards awaiting redemption', async () => {
    await search('Haddad');
    const all = await names();
    const index = all.indexOf(layla.name);
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < index; i++) await h.page.locator('#search').press('ArrowDown');
    await expect.poll(() => h.page.locator('.result--active .result__name').textContent()).toBe(layla.name);
    await h.page.locator('#search').press('Enter');
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);
    expect(await h.page.getByTestId('customer-phone').textContent()).toBe(layla.phoneShown);
    const rewards = h.page.locator('.reward-list .reward-summary');
    await expect
      .poll(() => rewards.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-code'))))
      .toEqual(expect.arrayContaining([layla.rewards.availableProduct, layla.rewards.availablePoints]));
    // Used and expired rewards are not "awaiting redemption".
    const shown = await rewards.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-code')));
    expect(shown).not.toContain(layla.rewards.redeemed);
    expect(shown).not.toContain(layla.rewards.expired);
    expect(await h.page.locator('.card-details').first().textContent()).toContain('Coffee Club');
    await h.screenshot('12-customer');
    await h.page.keyboard.press('Escape');
    await expect.poll(() => h.page.evaluate(() => document.activeElement?.id)).toBe('search');
  });

  it("with this till's programme chosen in Settings, a result shows that card's points only, and the customer shows it first", async () => {
    const coffeeClub = PROGRAMS.find((programme) => programme.slug === 'coffee-club')!;
    await h.page.keyboard.press('F9');
    const choice = h.page.locator('#program-id');
    // The choice offers the programmes on the cards of the customers this till has cached.
    await expect
      .poll(() => choice.locator('option').allTextContents())
      .toEqual(expect.arrayContaining(['Coffee Club', 'Bakery Points']));
    await choice.selectOption({ label: 'Coffee Club' });
    await h.page.getByRole('button', { name: 'Save settings' }).click();
    await h.page.getByText('Settings saved.').waitFor();
    await h.screenshot('19-settings-till-programme');
    const state = await h.call('getState');
    expect(state.ok && state.data.settings.programId).toBe(coffeeClub.id);

    // Layla holds a Bakery Points card too: the row shows her Coffee Club points alone.
    await search(layla.phoneShown);
    await expect.poll(names).toEqual([layla.name]);
    const row = h.page.locator('.result').first();
    expect(await row.locator('.card-points__item').allTextContents()).toEqual(['180 pts Coffee Club']);
    expect(await row.locator('.card-points__item--till').count()).toBe(1);
    await h.screenshot('11b-find-till-programme');

    await h.page.locator('#search').press('Enter');
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);
    expect(await h.page.getByTestId('customer-points').textContent()).toBe('180 pts Coffee Club');
    const cards = h.page.locator('.card-details');
    expect(await cards.count()).toBe(2); // the other programme's card stays visible
    expect(await cards.first().locator('.card-details__programme').textContent()).toContain('Coffee Club');
    expect(await cards.first().getAttribute('class')).toContain('card-details--till');
    expect(await cards.nth(1).textContent()).toContain('Bakery Points');
    expect(await cards.nth(1).getAttribute('class')).not.toContain('card-details--till');
    await h.screenshot('12b-customer-till-programme');
  });

  it('registers a new customer from an empty search, with the phone carried over (201)', async () => {
    await search('+966 55 987 6543');
    await h.page.getByTestId('no-results').waitFor();
    await h.screenshot('13-find-none');
    await h.page.locator('#search').press('Enter'); // a second Enter goes on to register
    expect(await h.page.locator('#phone').inputValue()).toBe('+966 55 987 6543');
    await h.page.locator('#name').fill('Noura Test-Register');
    await h.page.locator('#email').fill('noura@example.com');
    await h.page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe('Noura Test-Register');
    const notice = h.page.getByTestId('customer-notice');
    expect(await notice.getAttribute('data-kind')).toBe('created');
    expect(await notice.textContent()).toContain('is now registered');
    await h.screenshot('14-registered-new');
  });

  it('says so when registering finds an existing customer (200), and changes nothing', async () => {
    await h.page.keyboard.press('F2');
    await h.page.getByRole('button', { name: 'Register new' }).click();
    await h.page.locator('#name').fill('Someone Else');
    await h.page.locator('#phone').fill('0501234567');
    await h.page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);
    const notice = h.page.getByTestId('customer-notice');
    expect(await notice.getAttribute('data-kind')).toBe('existing');
    expect(await notice.textContent()).toContain('already registered');
    await h.screenshot('15-registered-existing');
  });

  it('shows the service’s field errors beside their fields and loses nothing typed', async () => {
    await h.page.keyboard.press('F2');
    await h.page.getByRole('button', { name: 'Register new' }).click();
    await h.page.locator('#name').fill('Field Error Person');
    await h.page.locator('#phone').fill('+44 7400 123456');
    await h.page.locator('#email').fill('not-an-email');
    await h.page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => h.page.locator('#email-error').textContent()).toBeTruthy();
    expect(await h.page.locator('#name').inputValue()).toBe('Field Error Person');
    expect(await h.page.locator('#phone').inputValue()).toBe('+44 7400 123456');
    expect(await h.page.locator('#email').inputValue()).toBe('not-an-email');
    expect(await h.page.locator('#email').getAttribute('aria-invalid')).toBe('true');
    await h.screenshot('16-register-field-error');
  });

  it('corrects a name, and the correction is there after a reload', async () => {
    await search(lukasz.phone);
    await h.page.locator('#search').press('Enter');
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(lukasz.name);
    await h.page.keyboard.press('F4');
    expect(await h.page.locator('#phone').getAttribute('readonly')).not.toBeNull();
    await h.page.locator('#name').fill('Łukasz Żółkiewski-Nowak');
    await h.screenshot('17-correct');
    await h.page.getByRole('button', { name: 'Save corrections' }).click();
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe('Łukasz Żółkiewski-Nowak');

    await h.page.reload();
    await h.page.locator('#search').waitFor();
    await search(lukasz.phone);
    await expect.poll(names).toEqual(['Łukasz Żółkiewski-Nowak']);
    await h.page.locator('#search').press('Enter');
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe('Łukasz Żółkiewski-Nowak');
  });

  it('clears an email on correction: only the email is sent, as null, and it is gone after a reload', async () => {
    await search(layla.phone);
    await h.page.locator('#search').press('Enter');
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);
    expect(await h.page.getByTestId('customer-email').textContent()).toBe('layla.haddad@example.com');
    await h.page.keyboard.press('F4');
    await h.page.locator('#email').fill('');
    await h.page.getByRole('button', { name: 'Save corrections' }).click();
    await expect.poll(() => h.page.getByTestId('customer-email').textContent()).toBe('—');
    const sent = h.bridgeCalls.filter((call) => call.channel === CHANNELS.updateCustomer).at(-1);
    expect(sent?.payload).toEqual({ id: layla.id, email: null });

    await h.page.reload();
    await h.page.locator('#search').waitFor();
    await search(layla.phone);
    await h.page.locator('#search').press('Enter');
    await expect.poll(() => h.page.getByTestId('customer-name').textContent()).toBe(layla.name);
    expect(await h.page.getByTestId('customer-email').textContent()).toBe('—');
    const stored = await h.call('getCustomer', { id: layla.id });
    expect(stored.ok && stored.data.email).toBeNull();
    // Her birthday was not touched.
    expect(stored.ok && stored.data.birthday).toBe('1990-04-12');
  });

  it('stays usable with a large system font: nothing runs off the side of a 1366-pixel screen', async () => {
    await search(layla.phoneShown);
    await h.page.locator('#search').press('Enter');
    await h.page.getByTestId('customer-name').waitFor();
    await h.page.evaluate(() => {
      document.documentElement.style.fontSize = '150%';
    });
    const overflow = await h.page.evaluate(() => {
      const scroller = document.querySelector('.screen-scroll') as HTMLElement;
      return {
        page: document.documentElement.scrollWidth - window.innerWidth,
        screen: scroller.scrollWidth - scroller.clientWidth,
      };
    });
    expect(overflow).toEqual({ page: 0, screen: 0 });
    await h.screenshot('18-customer-large-font');
    await h.page.evaluate(() => {
      document.documentElement.style.fontSize = '';
    });
  });

  it('ran the whole time under the page’s Content-Security-Policy without a violation', async () => {
    expect(await h.cspViolations()).toEqual([]);
  });

  it('gets its Content-Security-Policy from the app:// protocol handler as a header, the one source, and is held to it', async () => {
    const response = await h.page.reload();
    expect(response?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(await h.page.locator('meta[http-equiv="Content-Security-Policy" i]').count()).toBe(0);
    await h.page.locator('main.screen > *').first().waitFor();
    // An injected inline script is refused by the header's policy, and the refusal is reported.
    const ran = await h.page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.head.append(script);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => h.cspViolations()).toEqual([expect.stringMatching(/^script-src/)]);
  });
});
