// A till heard from again after a cut (electron/shop-ledger/peer-exchanges.ts): the catch-up
// with it may fail once more while the link settles, and is then tried again within seconds,
// not left to the anti-entropy round minutes away; its messages meanwhile start no second one.
import { afterEach, expect, test, vi } from 'vitest';
import { ClaimLedger } from '../../../electron/shop-ledger/claim-ledger';
import { newClaim } from '../../../electron/shop-ledger/claims';
import { createPeerBook } from '../../../electron/shop-ledger/peer-book';
import { createPeerExchanges, type PeerExchanges } from '../../../electron/shop-ledger/peer-exchanges';
import type { Exchange, PeerAddress } from '../../../electron/shop-ledger/peer-transport';
import type { ShopMessage } from '../../../electron/shop-ledger/wire';
import { SHOP_KEYS } from '../../support/shop-keys';

const TILL_1: PeerAddress = { host: '10.0.0.1', port: 47231 };
const HELD = newClaim(SHOP_KEYS, 'RW-BACK001', 'Till 1', new Date('2026-11-27T11:35:00.000Z'));

let exchanges: PeerExchanges | undefined;
afterEach(() => exchanges?.stop());

/** Till 2's side: Till 1 answers asks with its claim, after failing the first `stumbles` of them. */
function tillTwo(stumbles: number, retryReturnMs: number[]) {
  const ledger = new ClaimLedger();
  const book = createPeerBook({ self: 'Till 2', configured: [TILL_1], now: Date.now, seenForMs: 8 * 3_600_000 });
  const asks: string[] = [];
  const send = vi.fn(async (_peer: PeerAddress, message: ShopMessage): Promise<Exchange> => {
    asks.push(message.kind);
    if (message.kind === 'ask' && asks.filter((kind) => kind === 'ask').length <= stumbles) {
      return { ok: false, failure: 'unreachable' };
    }
    const claims = message.kind === 'ask' ? [HELD] : [];
    const reply = { kind: 'answer', inReplyTo: 'n', claims, from: 'Till 1', port: 47231, sentAt: '', nonce: 'n' };
    return { ok: true, reply: reply as Extract<Exchange, { ok: true }>['reply'] };
  });
  exchanges = createPeerExchanges({
    ledger,
    book,
    transport: { send },
    changed: () => undefined,
    askTimeoutMs: 200,
    tillName: 'Till 2',
    retryReturnMs,
  });
  // Till 1 was cut: the last exchange with it failed.
  book.failed(TILL_1, 'unreachable');
  return { ledger, asks, exchanges, book };
}

test('a catch-up that fails just after the link came back is tried again, and the claim arrives', async () => {
  const { ledger, asks, exchanges: two } = tillTwo(1, [20, 20]);
  // Till 2's next exchange with Till 1 (a check) is answered: Till 1 is back, so everything it holds is asked for.
  await two.queryAll(HELD.token, 200);
  await vi.waitFor(() => expect(ledger.claimsFor(HELD.token)).toEqual([HELD]), { timeout: 2_000 });
  // The check, the ask that stumbled, the ask tried again.
  expect(asks).toEqual(['query', 'ask', 'ask']);
});

test('tried again only so often: a link that stays down is left to the anti-entropy round', async () => {
  const { ledger, asks, exchanges: two } = tillTwo(10, [10, 10]);
  await two.queryAll(HELD.token, 200);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(asks).toEqual(['query', 'ask', 'ask', 'ask']);
  expect(ledger.claimsFor(HELD.token)).toEqual([]);
});

test('a stopped ledger tries nothing again', async () => {
  const { asks, exchanges: two } = tillTwo(10, [50]);
  await two.queryAll(HELD.token, 200);
  await vi.waitFor(() => expect(asks).toEqual(['query', 'ask']));
  two.stop();
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(asks).toEqual(['query', 'ask']);
});

test('a till proven before, back after a cut: its hellos start one catch-up, however many it sends', async () => {
  const { ledger, asks, exchanges: two, book } = tillTwo(0, [20]);
  book.proven(TILL_1, 'Till 1');
  book.failed(TILL_1, 'unreachable');
  const query = { kind: 'query', token: HELD.token, from: 'Till 1', port: TILL_1.port, to: '10.0.0.2:47231' } as const;
  for (let message = 0; message < 3; message += 1) {
    two.answer({ ...query, sentAt: new Date().toISOString(), nonce: `n${message}` }, TILL_1.host);
  }
  await vi.waitFor(() => expect(ledger.claimsFor(HELD.token)).toEqual([HELD]), { timeout: 2_000 });
  expect(asks).toEqual(['ask']);
});
