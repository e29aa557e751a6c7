/**
 * Figure 7: what the shop ledger adds to an offline redemption (docs/shop-ledger.md), in the
 * main process where it runs: the check of the other tills and the claim, three tills on
 * loopback. With two peers answering; and with one peer that takes connections and never
 * answers (a till whose cable was pulled mid-exchange), which must cost at most the bounded
 * wait. The bridge call around them is measured in figure 5 (scan to answer). Then the siege
 * (shop-siege.ts) and the replay of recorded frames (shop-replayed.ts).
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createShopLedger, type ShopLedger } from '../../electron/shop-ledger/shop-ledger-service';
import { LOOPBACK } from '../support/free-port';
import { SHOP_KEYS } from '../support/shop-keys';
import type { Report } from './report';
import { replayedFramesFigures } from './shop-replayed';
import { siegeFigures } from './shop-siege';
import { threeTills } from './shop-tills';
import { summarize } from './stats';

const WAIT_MS = 300;
/** What the till may add to the bounded wait: the claim to the peers that answer, and the bookkeeping. */
const OVER_WAIT_MS = 50;

async function timeRedemptions(till: ShopLedger, prefix: string, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const code = `RW-${prefix}${String(index).padStart(5, '0')}`;
    const started = performance.now();
    const { claimedBy } = await till.check(code, { waitMs: WAIT_MS });
    if (claimedBy !== null) throw new Error(`${code} was claimed elsewhere: the bench's codes must be new.`);
    await till.claim(code);
    samples.push(performance.now() - started);
  }
  return samples;
}

export async function shopFigures(report: Report, redemptions: number): Promise<void> {
  const { tills, at } = await threeTills(WAIT_MS);
  // Takes connections and never answers; its sockets are destroyed at the end, or closing it
  // would wait for them forever.
  const held = new Set<Socket>();
  const silent: Server = createServer((socket) => void held.add(socket));
  await new Promise<void>((resolve) => silent.listen(0, LOOPBACK, resolve));
  const silentAt = { host: LOOPBACK, port: (silent.address() as AddressInfo).port };
  const cut = createShopLedger({
    keys: SHOP_KEYS,
    tillName: 'Till 4',
    listen: { host: LOOPBACK, port: 0 },
    peers: [at[1]!, silentAt],
    askTimeoutMs: WAIT_MS,
  });
  try {
    for (const till of tills) await till.start();
    await cut.start();
    // Warm: the first connections pay for JIT and the kernel's first accept.
    await timeRedemptions(tills[0]!, 'WARM', 20);
    const answered = summarize(await timeRedemptions(tills[0]!, 'SHOP', redemptions));
    report.add({
      id: 'shop.two_peers',
      section: '7 shop',
      label: 'offline redemption: check and claim with two tills answering (loopback)',
      unit: 'ms',
      summary: answered,
      target: { text: 'p95 < 50 ms', met: answered.p95 < 50 },
    });
    const cutOff = summarize(await timeRedemptions(cut, 'CUT', 20));
    report.add({
      id: 'shop.one_silent',
      section: '7 shop',
      label: `offline redemption with one till silent (wait ${WAIT_MS} ms)`,
      unit: 'ms',
      summary: cutOff,
      target: { text: `p95 ≤ wait + ${OVER_WAIT_MS} ms`, met: cutOff.p95 <= WAIT_MS + OVER_WAIT_MS },
    });
  } finally {
    await Promise.all([...tills, cut].map((till) => till.stop()));
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
  await siegeFigures(report, 200);
  await replayedFramesFigures(report, 200);
}
