// The shop's report over the ledger (electron/shop-ledger/report-part.ts, report-relay.ts, the
// `report-ask` of shop-ledger-service.ts): each till's figures, by its name, and the tills
// that did not answer named.
import { afterEach, describe, expect, test } from 'vitest';
import type { ShopReportPart } from '../../../common/contract';
import { isReportPart, MAX_REWARD_LINES } from '../../../electron/shop-ledger/report-part';
import { createReportRelay } from '../../../electron/shop-ledger/report-relay';
import { createShopLedger, type ShopLedger } from '../../../electron/shop-ledger/shop-ledger-service';
import { openMessage, sealMessage } from '../../../electron/shop-ledger/wire';
import { ReplayCache } from '../../../electron/shop-ledger/replay-cache';
import { freePort, LOOPBACK } from '../../support/free-port';
import { SHOP_KEYS } from '../../support/shop-keys';

const counts = { done: 3, queued: 1, conflict: 0, failed: 0, refused: 1, points: 150 };
const PART: ShopReportPart = {
  totals: { ...counts, registrations: 2, registrationsQueued: 0, registrationsFailed: 0, corrections: 1 },
  byReward: [{ reward: 'قهوة مجانية', ...counts }],
  byCashier: [
    { cashier: 'Sara (12)', ...counts, registrations: 2, corrections: 1 },
    { cashier: null, ...counts, registrations: 0, corrections: 0 },
  ],
};
const STUCK = { waiting: 0, failed: 0, conflicts: 1, oldestMinutes: 1440 };
const SINCE = '2026-11-26T06:00:00.000Z';
const UNTIL = '2026-11-27T18:00:00.000Z';

const running: ShopLedger[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((till) => till.stop()));
});

describe('one till’s report as it crosses the LAN', () => {
  test('travels sealed and comes back the same', () => {
    const now = new Date('2026-11-26T10:00:00.000Z');
    const bytes = sealMessage({ kind: 'report', inReplyTo: 'AAAAAAAAAAAAAAAAAAAAAA', ...PART }, SHOP_KEYS, {
      from: 'Till 2',
      to: '10.0.0.1:51234',
      now,
    });
    const at = '10.0.0.1:51234';
    const opened = openMessage(bytes, SHOP_KEYS, { now: now.getTime(), at, seenNonces: new ReplayCache() });
    expect(opened).toMatchObject({ ok: true, message: { kind: 'report', from: 'Till 2', ...PART } });
  });

  test('carries the till’s outbox, and a report without it (an earlier version’s) still reads', () => {
    const now = new Date('2026-11-26T10:00:00.000Z');
    const at = '10.0.0.1:51234';
    const outbox = { waiting: 3, failed: 1, conflicts: 0, oldestMinutes: 1570 };
    const bytes = sealMessage({ kind: 'report', inReplyTo: 'AAAAAAAAAAAAAAAAAAAAAA', ...PART, outbox }, SHOP_KEYS, {
      from: 'Till 2',
      to: at,
      now,
    });
    const opened = openMessage(bytes, SHOP_KEYS, { now: now.getTime(), at, seenNonces: new ReplayCache() });
    expect(opened).toMatchObject({ ok: true, message: { kind: 'report', ...PART, outbox } });
    expect(isReportPart({ ...PART, outbox })).toBe(true);
    expect(isReportPart({ ...PART, outbox: { ...outbox, oldestMinutes: null } })).toBe(true);
    // Counts and an age, nothing else: no item, no customer.
    expect(isReportPart({ ...PART, outbox: { ...outbox, oldest: 'RW-LAYLA001' } })).toBe(false);
    expect(isReportPart({ ...PART, outbox: { ...outbox, waiting: -1 } })).toBe(false);
    expect(isReportPart({ ...PART, outbox: { ...outbox, oldestMinutes: '1570' } })).toBe(false);
    expect(isReportPart({ ...PART, outbox: null })).toBe(false);
  });

  test('anything but counts and names is refused: a phone, a negative count, too many lines', () => {
    expect(isReportPart(PART)).toBe(true);
    expect(isReportPart({ ...PART, phone: '+966501234567' })).toBe(false);
    expect(isReportPart({ ...PART, totals: { ...PART.totals, done: -1 } })).toBe(false);
    expect(isReportPart({ ...PART, byReward: [{ ...PART.byReward[0], customer: 'Layla' }] })).toBe(false);
    expect(isReportPart({ ...PART, byCashier: [{ ...PART.byCashier[0], cashier: 'a\u0000b' }] })).toBe(false);
    const many = Array.from({ length: MAX_REWARD_LINES + 1 }, (_, index) => ({ reward: `R${index}`, ...counts }));
    expect(isReportPart({ ...PART, byReward: many })).toBe(false);
  });
});

describe('the relay between the ledger and the page', () => {
  test('a request waits for the page, which answers it', async () => {
    const relay = createReportRelay();
    const asked = relay.ask(SINCE, UNTIL, 1000);
    const request = await relay.next(1000);
    expect(request).toEqual({ id: 1, since: SINCE, until: UNTIL });
    expect(relay.answer(request!.id, PART)).toBe(true);
    expect(await asked).toEqual(PART);
    // Once answered, a late second answer finds nothing waiting.
    expect(relay.answer(request!.id, PART)).toBe(false);
  });

  test('a page that does not answer in time gives none; a page with no request hears null', async () => {
    const relay = createReportRelay();
    expect(await relay.ask(SINCE, UNTIL, 20)).toBeNull();
    expect(await relay.next(20)).toBeNull();
  });
});

describe('the shop’s report over the ledger', () => {
  test('each till that answers is named with its report; a silent one is named', async () => {
    const at = [await freePort(), await freePort(), await freePort()].map((port) => ({ host: LOOPBACK, port }));
    const make = (index: number, report?: (since: string, until: string) => Promise<ShopReportPart | null>) =>
      createShopLedger({
        keys: SHOP_KEYS,
        tillName: `Till ${index + 1}`,
        listen: at[index]!,
        peers: at.filter((_, other) => other !== index),
        askTimeoutMs: 500,
        ...(report ? { report } : {}),
      });
    const asked: string[] = [];
    const tills = [
      make(0),
      // Till 2 says its outbox: an item stuck in conflict for a day.
      make(1, async (since, until) => {
        asked.push(`${since}..${until}`);
        return { ...PART, outbox: STUCK };
      }),
      // Till 3's page never answers.
      make(2, async () => null),
    ];
    for (const till of tills) {
      running.push(till);
      await till.start();
    }
    const gathered = await tills[0]!.gatherReports(SINCE, UNTIL, 1000);
    // Every till reports the asker's period, its end included.
    expect(asked).toEqual([`${SINCE}..${UNTIL}`]);
    expect(gathered).toEqual({ tills: [{ till: 'Till 2', report: { ...PART, outbox: STUCK } }], silent: ['Till 3'] });
  });
});
