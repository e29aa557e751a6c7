/**
 * A neighbour that records the shop's LAN and sends it back, end to end (docs/shop-ledger.md,
 * "What a LAN neighbour can and cannot do"): two whole tills on hosts of their own, finding
 * each other by mDNS (lan-tills.ts), the service on a third, and on a fourth a host replaying
 * every ledger frame the tills exchanged while they started and around a claim. No replayed
 * request is answered; Settings lists the other till only; the claim is still seen at the
 * other till; and while every real till answers, no offline redemption asks the split
 * question or is refused. Nothing leaves the machine: where namespaces cannot be made, the
 * test fails saying so.
 *
 * Hosts: 1 Till 1, 2 Till 2, 3 the service, 4 the replaying host.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deriveShopKeys } from '../../electron/shop-ledger/shop-secret';
import { DEMO_FIXTURES } from '../../sandbox';
import { kindsOf } from '../support/frame-tap';
import { requireNetworkNamespaces } from '../support/network-namespace';
import { replayFromHost } from '../support/replaying-host';
import { openCustomer, redeemOffline } from './cashier';
import { requireChromium, screenshotOf, SERVICE_KEY } from './harness';
import { HOST, LEDGER_PORT, startLanShop, type LanShop } from './lan-shop';

const { layla, omar } = DEMO_FIXTURES;
const BRANCH_ID = '5c2d7e10-8a4b-4f6c-9d1e-2b3a4c5d6e7f';
/** The fourth host, after the tills' and the service's. */
const NEIGHBOUR = 3;

/** Redeemed at Till 1 while the frames are recorded; then redeemed at each till after the replays. */
const CLAIMED = { code: layla.rewards.availableProduct, phone: layla.phone };
const AT_TILL_2 = { code: omar.reward, phone: omar.phone };
const AT_TILL_1 = { code: layla.rewards.availablePoints, phone: layla.phone };

/** Settings' live list of the shop's other tills, as the page shows it: each till's name and whether it answers. */
async function listedInSettings(page: Page): Promise<Array<{ till: string; reachable: string | null }>> {
  await page.keyboard.press('F9');
  const items = page.locator('[data-testid="shop-tills"] li');
  await items.first().waitFor();
  const listed = await items.evaluateAll((rows) =>
    rows.map((row) => ({
      till: row.querySelector('bdi')?.textContent ?? '',
      reachable: row.getAttribute('data-reachable'),
    })),
  );
  await page.keyboard.press('Escape');
  return listed;
}

describe('a host replaying the shop’s recorded traffic fools no till', () => {
  let shop: LanShop;

  beforeAll(async () => {
    // Loud, never quiet: without a browser or namespaces this test cannot run, and says why.
    requireChromium();
    requireNetworkNamespaces();
    vi.setConfig({ expect: { poll: { timeout: 15_000, interval: 100 } } });
    // Each finds the other by mDNS and hears from it: the start-up the neighbour records.
    shop = await startLanShop({ hosts: 4, branchId: BRANCH_ID, prefix: 'till-replay-e2e-' });
  }, 180_000);

  afterAll(async () => {
    await shop?.close();
  });

  it('each till caches the customers; then the service goes down and Till 1 redeems a reward', async () => {
    const { one, two, lan } = shop;
    for (const till of [one, two]) {
      await openCustomer(till.page, layla.phone, layla.name);
      await openCustomer(till.page, omar.phone, omar.name);
    }
    await lan.cut(HOST.service);
    // Checked with Till 2 and claimed to it: both answered, so no question.
    expect(await redeemOffline(one.page, CLAIMED.code, CLAIMED.phone, 'POS-1-CLAIMED')).toEqual({
      queued: expect.stringContaining(CLAIMED.code),
    });
  });

  it('the neighbour replays it all to both tills: nothing is answered, and Settings lists the other till alone', async () => {
    const { one, two, lan, service, work } = shop;
    const frames = [...(await one.captured()), ...(await two.captured())];
    const keys = deriveShopKeys({ apiKey: SERVICE_KEY, baseUrl: service.url, branchId: BRANCH_ID, programId: null });
    const kinds = new Set(
      kindsOf(
        frames.map((frame) => Buffer.from(frame, 'base64')),
        keys!,
      ),
    );
    // The start-up (asks and their answers) and the claim (the check's query, the claim, answers).
    expect([...kinds].sort()).toEqual(['answer', 'ask', 'claim', 'query']);
    const targets = [HOST.till1, HOST.till2].map((index) => `${lan.hosts[index]!.address}:${LEDGER_PORT}`);
    const replayed = await replayFromHost(lan.hosts[NEIGHBOUR]!, frames, targets, { dir: work, rounds: 2 });
    expect(replayed.sent).toBe(frames.length * targets.length * 2);
    expect(replayed.answeredAt).toEqual({});
    expect(await listedInSettings(one.page)).toEqual([{ till: 'Till 2', reachable: 'true' }]);
    expect(await listedInSettings(two.page)).toEqual([{ till: 'Till 1', reachable: 'true' }]);
    await screenshotOf(two.page, '72-shop-replayed-frames-settings');
  });

  it('the claim is still seen at Till 2, and neither till is asked the split question or refused', async () => {
    const { one, two } = shop;
    expect(await redeemOffline(two.page, CLAIMED.code, CLAIMED.phone, 'POS-2-CLAIMED')).toEqual({
      claimedAtCheck: expect.stringMatching(/^Redeemed at Till 1 at .+, waiting to be sent$/),
    });
    // The default: a till out of reach would be a question before queuing. None is.
    expect(await redeemOffline(two.page, AT_TILL_2.code, AT_TILL_2.phone, 'POS-2-OTHER')).toEqual({
      queued: expect.stringContaining(AT_TILL_2.code),
    });
    // Refusing while split: a till out of reach would be a refusal. None is.
    expect((await one.call('updateSettings', { shopRedeemWhenSplit: false })).ok).toBe(true);
    expect(await redeemOffline(one.page, AT_TILL_1.code, AT_TILL_1.phone, 'POS-1-OTHER')).toEqual({
      queued: expect.stringContaining(AT_TILL_1.code),
    });
  });
});
