import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FIXTURES } from '../../sandbox';
import { SERVICE_KEY, startHarness, type Harness } from './harness';
import { CHANNELS } from '../../common/contract';
import { DEFAULT_LINK_RATE } from '../../electron/links/link-rate-limit';
import { ENGLISH, describe as words } from '../../electron/messages';

const { layla, omar } = DEMO_FIXTURES;

interface CallbackRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The POS's side: a local server that records every callback it is sent. */
async function startPosCallbackServer(): Promise<{ url: string; received: CallbackRequest[]; close(): Promise<void> }> {
  const received: CallbackRequest[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/loyalty/outcome`,
    received,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

describe('links from the POS: loyalty-till://', () => {
  let h: Harness;
  let pos: Awaited<ReturnType<typeof startPosCallbackServer>>;

  beforeAll(async () => {
    pos = await startPosCallbackServer();
    h = await startHarness({ callbackRetryDelaysMs: [200, 500] });
    await h.configureService();
    const callback = await h.call('updateSettings', { posCallbackUrl: pos.url });
    if (!callback.ok) throw new Error(callback.error.message);
    // The page's clock, moved on with the till's by `passTime`; it runs at the real pace until then.
    await h.page.clock.install();
    await h.openApp();
  });
  afterAll(async () => {
    await h?.close();
    await pos?.close();
  });

  /**
   * Lets `ms` pass without waiting: for the link rate limit (and the main process's other
   * clocks, and the service's), and for the page, whose "the cashier is typing" pause counts too.
   */
  const passTime = async (ms: number) => {
    h.passTime(ms);
    await h.page.clock.fastForward(ms);
  };
  const TOO_MANY = words(ENGLISH, 'link.tooMany');
  const redemptionsOf = (code: string) => h.sandbox.redemptions().filter((r) => r.code === code);
  const screen = () => h.page.locator('main').getAttribute('data-screen');
  const focused = () =>
    h.page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.id ?? null);

  it('opens the reward with the order filled in, redeems on one key, and tells the POS (never the key)', async () => {
    const link = `loyalty-till://reward?code=${layla.rewards.availableProduct}&phone=${layla.phone}&order=ORD-1042`;
    expect(h.deliverLink(link)).toMatchObject({ accepted: true });

    await expect.poll(screen).toBe('reward');
    expect(await h.page.locator('#order-reference').inputValue()).toBe('ORD-1042');
    expect(await h.page.locator('#reward-code').inputValue()).toBe(layla.rewards.availableProduct);
    await expect.poll(() => h.page.getByTestId('link-opened').textContent()).toContain('Opened from a link');
    await expect.poll(() => h.page.locator('[data-testid="reward-state"]').first().textContent()).toBe('Available');
    await expect.poll(focused).toBe('redeem-confirm');

    // The link filled in and checked; nothing is redeemed until the cashier's key. The POS
    // is told only through the bridge's sendLinkOutcome, which nothing has called.
    await h.settled();
    expect(redemptionsOf(layla.rewards.availableProduct)).toHaveLength(0);
    expect(h.bridgeCalls.filter((call) => call.channel === CHANNELS.sendLinkOutcome)).toHaveLength(0);
    expect(pos.received).toHaveLength(0);
    await h.screenshot('60-link-reward');

    await h.page.keyboard.press('Enter');
    await h.page.getByTestId('redeemed').waitFor();
    const sent = redemptionsOf(layla.rewards.availableProduct);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ order_reference: 'ORD-1042', customer_id: layla.id });

    await expect.poll(() => pos.received.length).toBe(1);
    const [callback] = pos.received;
    expect(callback!.method).toBe('POST');
    expect(callback!.headers['content-type']).toMatch(/^application\/json/);
    expect(callback!.headers.authorization).toBeUndefined();
    expect(JSON.stringify(callback)).not.toContain(SERVICE_KEY);
    const body = JSON.parse(callback!.body);
    const customer = await h.call('getCustomer', { id: layla.id });
    if (!customer.ok) throw new Error(customer.error.message);
    expect(body).toMatchObject({
      event: 'loyalty-till.redemption',
      outcome: 'redeemed',
      reward_code: layla.rewards.availableProduct,
      order_reference: 'ORD-1042',
      points_balance: customer.data.cards[0]!.points,
      till_name: 'Till 2',
    });
    await h.screenshot('61-link-redeemed');
  });

  it('a link that asks to redeem by itself redeems nothing', async () => {
    const before = h.sandbox.redemptions().length;
    // No such route, and no such parameter: both refused, with a quiet notice.
    expect(h.deliverLink(`loyalty-till://redeem?code=${omar.reward}&phone=${omar.phone}&order=ORD-7`)).toMatchObject({
      accepted: false,
    });
    await expect.poll(() => h.page.getByTestId('link-refused').textContent()).toContain('Unknown route');
    await passTime(2100); // the rate limit lets the next link through
    expect(
      h.deliverLink(
        `loyalty-till://reward?code=${omar.reward}&phone=${encodeURIComponent(omar.phone)}&order=ORD-7&redeem=1&confirm=yes`,
      ),
    ).toMatchObject({ accepted: false });
    await expect.poll(() => h.page.getByTestId('link-refused').textContent()).toContain('Unknown parameter "redeem"');
    await passTime(2100);
    // A valid link: it opens and checks, and then waits for the cashier.
    expect(
      h.deliverLink(`loyalty-till://reward?code=${omar.reward}&phone=${encodeURIComponent(omar.phone)}&order=ORD-7`),
    ).toMatchObject({
      accepted: true,
    });
    await expect.poll(() => h.page.locator('#reward-code').inputValue()).toBe(omar.reward);
    await expect.poll(focused).toBe('redeem-confirm');
    await h.settled();
    expect(h.sandbox.redemptions()).toHaveLength(before);
    expect(redemptionsOf(omar.reward)).toHaveLength(0);
  });

  it('while the cashier types, a link waits behind a notice and opens with one key', async () => {
    await h.page.keyboard.press('F2');
    await h.page.locator('#search').fill('');
    await h.page.locator('#search').pressSequentially('Lay', { delay: 60 });
    await passTime(2100);
    expect(h.deliverLink('loyalty-till://find?q=Haddad')).toMatchObject({ accepted: true });
    await expect.poll(() => h.page.getByTestId('link-held').textContent()).toContain('search for “Haddad”');
    // Nothing moved: the screen and what was typed are as they were.
    expect(await screen()).toBe('find');
    expect(await h.page.locator('#search').inputValue()).toBe('Lay');
    await h.screenshot('62-link-held');

    await h.page.keyboard.press('F6');
    await expect.poll(() => h.page.locator('#search').inputValue()).toBe('Haddad');
    await expect.poll(() => h.page.locator('.result__name').allTextContents()).toContain(layla.name);
    expect(await h.page.getByTestId('link-held').count()).toBe(0);
  });

  it('a flood of links is cut short by the rate limit, and the page stays usable', async () => {
    await passTime(6100); // a full bucket
    const receipts = Array.from({ length: 100 }, (_, i) => h.deliverLink(`loyalty-till://find?q=flood${i}`));
    const accepted = receipts.filter((r) => r.accepted).length;
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(accepted).toBeLessThanOrEqual(3);
    // Every link past the burst is refused as too many; the cashier is told once.
    expect(receipts.slice(accepted)).toEqual(Array(100 - accepted).fill({ accepted: false, reason: TOO_MANY }));
    await expect.poll(() => h.page.getByTestId('link-refused').textContent()).toContain(TOO_MANY);
    await h.page.keyboard.press('F2');
    await expect.poll(screen).toBe('find');
    // Once the bucket has refilled by one, a link is taken again.
    await passTime(DEFAULT_LINK_RATE.refillMs + 100);
    expect(h.deliverLink('loyalty-till://find?q=Haddad')).toMatchObject({ accepted: true });
  });
});
