/**
 * The cashier's rhythm as background work sees it (renderer/offline/pacing/search-rhythm.ts):
 * a redemption queued offline (`hold`) keeps background writes from starting and rolls back
 * one still reading, as a search does, and tells one already sending that the cashier waits
 * (it sends no more parts); but it is not a search, so the pause the fill fits its
 * writes to, and the writes a search met, are not moved by it.
 */
import { expect, test } from 'vitest';
import { SearchRhythm, type InterruptibleWrite } from '../../../../renderer/offline/pacing/search-rhythm';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function backgroundWrite(writesSent: boolean): InterruptibleWrite & { abortedBy: number } {
  const write = {
    abortedBy: 0,
    aborted: false,
    writesSent,
    metBySearch: false,
    cashierWaits: false,
    transaction: { abort: () => (write.abortedBy += 1) },
  };
  return write;
}

test('a hold keeps background writes waiting, and the cashier busy now, until it ends', async () => {
  const rhythm = new SearchRhythm();
  let release: () => void = () => undefined;
  const held = rhythm.hold(() => new Promise<void>((resolve) => (release = resolve)));
  let idle = false;
  const waiting = rhythm.whenSearchesIdle().then(() => (idle = true));
  const searchEnd = rhythm.nextSearchEnd();
  expect(rhythm.expectedSearchIn()).toBe(0);
  await sleep(20);
  expect(idle).toBe(false);
  release();
  await held;
  await waiting;
  await searchEnd;
  expect(idle).toBe(true);
});

test("what waited for a hold resumes after the hold's answer has reached its caller, not before", async () => {
  const rhythm = new SearchRhythm();
  const order: string[] = [];
  let release: (value: string) => void = () => undefined;
  // As the counter's "Queued" does: the answer passes up through a few awaits.
  const queueing = async () => rhythm.hold(() => new Promise<string>((resolve) => (release = resolve)));
  const counter = (async () => {
    const answer = await (async () => await queueing())();
    order.push(answer);
  })();
  void rhythm.whenSearchesIdle().then(() => order.push('fill prepares a page'));
  void rhythm.nextSearchEnd().then(() => order.push('fill asks a page'));
  release('Queued');
  await counter;
  await sleep(5);
  expect(order).toEqual(['Queued', 'fill prepares a page', 'fill asks a page']);
});

test('a hold rolls back a background write still reading, waits for one whose writes are sent, and counts as neither', async () => {
  const rhythm = new SearchRhythm();
  const reading = backgroundWrite(false);
  rhythm.writeBegins(reading);
  await rhythm.hold(async () => undefined);
  expect(reading.abortedBy).toBe(1);
  rhythm.writeEnds(reading);

  const sending = backgroundWrite(true);
  rhythm.writeBegins(sending);
  await rhythm.hold(async () => undefined);
  expect(sending.abortedBy).toBe(0);
  // But it is told the cashier waits: a write that grows part by part sends no more parts.
  expect(sending.cashierWaits).toBe(true);
  expect(sending.metBySearch).toBe(false);
  // Not a search: the writes searches met, and the cashier's pause, are untouched.
  expect(rhythm.backgroundWritesMetBySearch).toBe(0);
  expect(rhythm.typicalSearchPause).toBeNull();
  expect(rhythm.expectedSearchIn()).toBeNull();
});

test('searches still shape the rhythm around holds', async () => {
  const rhythm = new SearchRhythm();
  await rhythm.during(async () => undefined);
  await sleep(15);
  await rhythm.hold(() => sleep(5));
  await rhythm.during(async () => undefined);
  // The pause measured is from the last search's end, not the hold's.
  expect(rhythm.typicalSearchPause).toBeGreaterThanOrEqual(15);
});
