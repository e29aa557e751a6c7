import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CustomerCache } from '../../../../renderer/offline/cache/customer-cache';
import type { OfflineDb } from '../../../../renderer/offline/db/schema';
import { checkRewardOffline } from '../../../../renderer/offline/rewards/offline-check';
import { Outbox, type OutboxSettings } from '../../../../renderer/offline/outbox/outbox';
import { queueRefusalWords } from '../../../../renderer/lib/outbox-words';
import { customer, dropDb, freshDb, reward } from '../support/fixtures';
import { countCustomers } from '../../../support/offline-rows';

const SETTINGS: OutboxSettings = { allowOfflineRedemption: true, branchId: 'branch-1', defaultCountry: 'SA' };
const LAYLA = customer('c-layla', 'Layla Haddad', '+966 50 123 4567');
const LAYLA_REWARDS = [
  reward('RW-LAYLA001', 'c-layla'),
  reward('RW-LAYLA002', 'c-layla', { type: 'points', price: 50 }),
];

let db: OfflineDb;
let cache: CustomerCache;
let outbox: Outbox;
let clock: Date;

beforeEach(async () => {
  db = freshDb();
  clock = new Date('2026-03-01T09:00:00Z');
  cache = new CustomerCache(db, { defaultCountry: () => 'SA', now: () => clock });
  outbox = new Outbox(db, cache, { now: () => clock });
  await cache.putCustomerWithRewards({ ...LAYLA, rewards: LAYLA_REWARDS });
});
afterEach(() => dropDb(db));

const check = (code: string, phone: string) =>
  checkRewardOffline(db, { code, phone }, { defaultCountry: 'SA', now: clock });

describe('write-through', () => {
  test('a customer with rewards is cached with its fetch time; rewards keyed case-insensitively', async () => {
    const cached = await cache.getCustomer('c-layla');
    expect(cached?.record.fetchedAt).toBe('2026-03-01T09:00:00.000Z');
    expect(cached?.record.customer.rewards).toBeUndefined();
    expect(cached?.rewards.map((row) => row.code)).toEqual(['RW-LAYLA001', 'RW-LAYLA002']);
    expect((await check('rw-layla001', '0501234567')).verdict).toBe('available');
  });

  test('a reward missing from a fresh record is no longer offered, but kept', async () => {
    clock = new Date('2026-03-02T09:00:00Z');
    await cache.putCustomerWithRewards({ ...LAYLA, rewards: [LAYLA_REWARDS[1]!] });
    const cached = await cache.getCustomer('c-layla');
    expect(cached?.rewards.map((row) => row.code)).toEqual(['RW-LAYLA002']);
    expect((await check('RW-LAYLA001', '+966501234567')).verdict).toBe('no_longer_listed');
  });

  test('a redemption updates the reward and the card balance', async () => {
    await cache.applyRedemption(
      {
        reward: { ...LAYLA_REWARDS[1]!, status: 'redeemed', redeemed_at: '2026-03-01T09:00:00+00:00' },
        card: { ...LAYLA.cards[0]!, points: 50 },
      },
      '+966501234567',
    );
    expect((await check('RW-LAYLA002', '+966501234567')).verdict).toBe('redeemed');
    expect((await cache.getCustomer('c-layla'))?.record.customer.cards[0]!.points).toBe(50);
  });
});

describe('offline reward check', () => {
  test('answers from the cache and says so', async () => {
    const answer = await check('RW-LAYLA001', '+966 50 123 4567');
    expect(answer).toMatchObject({
      source: 'cache',
      verdict: 'available',
      cachedAt: '2026-03-01T09:00:00.000Z',
      customerId: 'c-layla',
    });
  });

  test('a code the cache does not hold cannot be verified offline', async () => {
    const answer = await check('RW-NOTCACHED', '+966501234567');
    expect(answer.verdict).toBe('unverifiable');
    expect(answer).not.toHaveProperty('message'); // a verdict, worded by lib/rewards-words.ts
  });

  test('a code shown with another phone is not this customer’s', async () => {
    expect((await check('RW-LAYLA001', '+971501234567')).verdict).toBe('wrong_customer');
  });

  test('redeemed, expired and unreadable phones', async () => {
    await cache.putReward(
      reward('RW-OLD', 'c-layla', { status: 'redeemed', redeemed_at: '2026-02-01T00:00:00+00:00' }),
      null,
    );
    await cache.putReward(reward('RW-LATE', 'c-layla', { expires_at: '2026-02-28T00:00:00+00:00' }), null);
    expect((await check('RW-OLD', '+966501234567')).verdict).toBe('redeemed');
    expect((await check('RW-LATE', '+966501234567')).verdict).toBe('expired');
    expect((await check('RW-LAYLA001', '12')).verdict).toBe('invalid_phone');
  });
});

describe('queueing a redemption', () => {
  test('stores the item and marks the reward pending, then the check shows it pending', async () => {
    const queued = await outbox.queueRedemption(
      { code: 'rw-layla001', phone: '0501234567', orderReference: ' ORD-1 ' },
      SETTINGS,
    );
    expect(queued.ok).toBe(true);
    if (!queued.ok) return;
    expect(queued.item).toMatchObject({
      kind: 'redeem',
      state: 'pending',
      code: 'RW-LAYLA001',
      phoneE164: '+966501234567',
      branchId: 'branch-1',
      orderReference: 'ORD-1',
      queuedAt: '2026-03-01T09:00:00.000Z',
      firstAttemptAt: null,
      customerName: 'Layla Haddad',
    });
    expect((await db.rewards.get('RW-LAYLA001'))?.pendingOutboxSeq).toBe(queued.item.seq);
    const answer = await check('RW-LAYLA001', '+966501234567');
    expect(answer.verdict).toBe('pending');
    expect(answer.pending).toMatchObject({ outboxSeq: queued.item.seq, state: 'pending' });
    expect(await outbox.counts()).toEqual({ pending: 1, failed: 0, conflict: 0, done: 0 });
  });

  test('the same reward cannot be queued twice', async () => {
    await outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '+966501234567' }, SETTINGS);
    const twice = await outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '+966501234567' }, SETTINGS);
    expect(twice).toMatchObject({ ok: false, reason: 'not_available', check: { verdict: 'pending' } });
    expect(await db.outbox.count()).toBe(1);
  });

  test('refused when the setting forbids offline redemption', async () => {
    const refused = await outbox.queueRedemption(
      { code: 'RW-LAYLA001', phone: '+966501234567' },
      { ...SETTINGS, allowOfflineRedemption: false },
    );
    expect(refused).toMatchObject({ ok: false, reason: 'offline_redemption_disabled' });
    expect(await db.outbox.count()).toBe(0);
  });

  test('refused for a code that cannot be verified offline', async () => {
    const refused = await outbox.queueRedemption({ code: 'RW-UNKNOWN', phone: '+966501234567' }, SETTINGS);
    expect(refused).toMatchObject({ ok: false, reason: 'not_available', check: { verdict: 'unverifiable' } });
    expect(await db.outbox.count()).toBe(0);
  });

  test('if marking the reward fails, no outbox row is left', async () => {
    const failMark = () => {
      throw new Error('disk full while marking the reward');
    };
    db.rewards.hook('updating', failMark);
    await expect(outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '+966501234567' }, SETTINGS)).rejects.toThrow(
      /disk full/,
    );
    db.rewards.hook('updating').unsubscribe(failMark);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.rewards.get('RW-LAYLA001'))?.pendingOutboxSeq).toBeUndefined();
  });

  test('if adding the outbox row fails, the reward is not marked pending', async () => {
    const failAdd = () => {
      throw new Error('quota exceeded while adding to the outbox');
    };
    db.outbox.hook('creating', failAdd);
    await expect(outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '+966501234567' }, SETTINGS)).rejects.toThrow(
      /quota/,
    );
    db.outbox.hook('creating').unsubscribe(failAdd);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.rewards.get('RW-LAYLA001'))?.pendingOutboxSeq).toBeUndefined();
    expect((await check('RW-LAYLA001', '+966501234567')).verdict).toBe('available');
  });

  test('an over-long order reference is refused with a field message', async () => {
    const refused = await outbox.queueRedemption(
      { code: 'RW-LAYLA001', phone: '+966501234567', orderReference: 'x'.repeat(300) },
      SETTINGS,
    );
    expect(refused).toMatchObject({
      ok: false,
      reason: 'invalid_input',
      fields: { order_reference: { problem: 'too_long', max: 191 } },
    });
    if (refused.ok || refused.reason === 'not_available' || refused.reason === 'not_kept')
      throw new Error('refused for another reason');
    expect(queueRefusalWords(refused)).toEqual({
      message: 'The order reference is too long.',
      fields: { order_reference: 'At most 191 characters.' },
    });
  });
});

describe('queueing a registration', () => {
  test('the customer is searchable and readable at once, and the item waits', async () => {
    await cache.loadIndex({ yieldToPage: async () => undefined });
    const queued = await outbox.queueRegistration(
      { name: 'Zeynep Kaya', phone: '0555 111 2233', email: 'z@example.com' },
      { defaultCountry: 'TR' },
    );
    expect(queued).toMatchObject({ ok: true, queued: true, customer: { localOnly: true, phoneE164: '+905551112233' } });
    if (!queued.ok) return;
    expect(queued.customer.customer.phone).toBe('+90 555 111 22 33');
    const found = await cache.search('zeynep');
    expect(found.customers.map((row) => row.id)).toEqual([queued.customer.id]);
    // Offline the customer is found and shown by name and phone; the email waits in the outbox
    // item only (the cache keeps no email, docs/privacy.md).
    const readable = (await cache.getCustomer(queued.customer.id))?.record.customer;
    expect(readable).toMatchObject({ name: 'Zeynep Kaya', phone: '+90 555 111 22 33' });
    expect(readable).not.toHaveProperty('email');
    expect(await db.outbox.get(queued.item!.seq!)).toMatchObject({
      kind: 'register',
      name: 'Zeynep Kaya',
      phoneE164: '+905551112233',
    });
  });

  test('a phone already cached is that customer, nothing queued', async () => {
    const known = await outbox.queueRegistration(
      { name: 'Someone Else', phone: '+966501234567' },
      { defaultCountry: 'SA' },
    );
    expect(known).toMatchObject({ ok: true, queued: false, customer: { id: 'c-layla' } });
    expect(await db.outbox.count()).toBe(0);
  });

  test('bad input is refused field by field and nothing is stored', async () => {
    const refused = await outbox.queueRegistration(
      { name: ' ', phone: '12', birthday: '1/2/1990' },
      { defaultCountry: 'SA' },
    );
    expect(refused).toMatchObject({
      ok: false,
      fields: { name: { problem: 'missing' }, phone: { problem: 'incomplete' }, birthday: { problem: 'not_a_date' } },
    });
    expect(refused.ok === false && queueRefusalWords(refused).fields).toEqual({
      name: 'Enter the customer’s name.',
      phone: 'Enter a complete phone number.',
      birthday: 'Use the date picker (YYYY-MM-DD).',
    });
    expect(await db.outbox.count()).toBe(0);
    expect(await countCustomers(db)).toBe(1);
  });

  test('a local dialling code reads the number', async () => {
    const queued = await outbox.queueRegistration(
      { name: 'Ola Nordmann', phone: '412 34 567', country_code: '47' },
      { defaultCountry: 'SA' },
    );
    expect(queued).toMatchObject({ ok: true, customer: { phoneE164: '+4741234567' } });
  });
});

describe('acknowledging', () => {
  test('only failures and conflicts; they move to the journal and clear the pending mark', async () => {
    const queued = await outbox.queueRedemption({ code: 'RW-LAYLA001', phone: '+966501234567' }, SETTINGS);
    if (!queued.ok) throw new Error('not queued');
    const seq = queued.item.seq!;
    expect(await outbox.acknowledge(seq)).toBe(false);
    await db.outbox.update(seq, { state: 'conflict', note: 'Redeemed elsewhere.' });
    expect(await outbox.acknowledge(seq)).toBe(true);
    expect(await db.outbox.count()).toBe(0);
    expect(await outbox.journal()).toMatchObject([
      { outboxSeq: seq, outcome: 'conflict_acknowledged', code: 'RW-LAYLA001', note: 'Redeemed elsewhere.' },
    ]);
    expect((await db.rewards.get('RW-LAYLA001'))?.pendingOutboxSeq).toBeUndefined();
  });
});
