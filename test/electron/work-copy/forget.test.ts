/**
 * Forgetting the till's data, the main process's part (electron/work-copy/forgetting.ts,
 * forget-operations.ts, storage/storage-operations.ts): the manager PIN first; refused while
 * items wait in the outbox unless the manager confirmed losing that many; then the work copy
 * deleted, the data key destroyed and a new one made, and the till's state saying when and
 * why. Switching to another service or programme forgets the same way; a new API key does not.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { KeptItem } from '../../../common/contract';
import { DATA_KEY_FILE } from '../../../electron/storage/data-key';
import { CONFIRMATION_MS, tillForgetting } from '../../../electron/work-copy/forgetting';
import { SET_ASIDE_MARK, WORK_COPY_FILE } from '../../../electron/work-copy/work-copy';
import { ENGLISH } from '../../../electron/messages';
import { createCoreFixture, type CoreFixture } from '../../support/app-core-fixture';
import { createCapturedLog } from '../../support/captured-log';

const PIN = '739164';
const fixtures: CoreFixture[] = [];
afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.dispose();
});

async function till(options: { pin?: boolean } = {}): Promise<CoreFixture> {
  const fixture = await createCoreFixture();
  fixtures.push(fixture);
  if (options.pin) {
    expect(await fixture.call('setManagerPin', { pin: PIN })).toMatchObject({ ok: true });
    expect(await fixture.call('endManagerApproval')).toMatchObject({ ok: true });
  }
  return fixture;
}

let uids = 0;
function item(kind: KeptItem['kind'] = 'redeem'): KeptItem {
  return {
    uid: `00000000-0000-4000-8000-${String(++uids).padStart(12, '0')}`,
    kind,
    state: 'pending',
    queuedAt: '2026-11-28T10:00:00.000Z',
    code: 'RW-LAYLA001',
    customerName: 'Layla Haddad',
  };
}

async function queue(fixture: CoreFixture, ...items: KeptItem[]): Promise<void> {
  expect(await fixture.call('keepWork', { changes: items.map((one) => ({ op: 'item', item: one })) })).toMatchObject({
    ok: true,
  });
}

async function keyBytes(fixture: CoreFixture): Promise<Buffer> {
  return readFile(join(fixture.userDataDir, DATA_KEY_FILE));
}

async function grantKey(fixture: CoreFixture): Promise<string> {
  const grant = await fixture.call('dataKey');
  if (!grant.ok) throw new Error('no data key');
  return grant.data.key;
}

const WAITING = (waiting: number) => ({ ok: false, error: { kind: 'validation', code: 'work_waiting', waiting } });

describe('Forget this till’s data', () => {
  test('needs the manager PIN once one is set, and changes nothing without it', async () => {
    const fixture = await till({ pin: true });
    await fixture.call('keepWork', {
      changes: [
        {
          op: 'journal',
          entry: {
            uid: item().uid,
            outboxUid: null,
            kind: 'register',
            outcome: 'registered',
            doneAt: '2026-11-28T10:00:00.000Z',
          },
        },
      ],
    });
    const key = await keyBytes(fixture);
    expect(await fixture.call('forgetTill')).toMatchObject({
      ok: false,
      error: { kind: 'unauthorized', code: 'manager_pin_required', action: 'forgetTill' },
    });
    expect((await keyBytes(fixture)).equals(key)).toBe(true);
    expect(fixture.core.workCopy.read().journalTotal).toBe(1);
    expect(fixture.log.text()).toMatch(/Refused forgetting this till’s data: the manager PIN was not given/);

    expect(await fixture.call('verifyManagerPin', { pin: PIN })).toMatchObject({ data: { accepted: true } });
    const forgotten = await fixture.call('forgetTill');
    expect(forgotten).toMatchObject({ ok: true, data: { forgotten: { why: 'manager' } } });
    expect(forgotten.ok && Date.parse(forgotten.data.forgotten!.at)).not.toBeNaN();
  });

  test('is refused while items wait, unless the manager confirmed losing at least that many', async () => {
    const fixture = await till();
    await queue(fixture, item(), item('register'));
    expect(await fixture.call('forgetTill')).toMatchObject(WAITING(2));
    // Confirming fewer than wait is no confirmation.
    expect(await fixture.call('confirmWaitingLoss', { waiting: 1 })).toEqual({ ok: true, data: null });
    expect(await fixture.call('forgetTill')).toMatchObject(WAITING(2));
    expect(fixture.core.workCopy.items()).toHaveLength(2);
    for (const bad of [{ waiting: -1 }, { waiting: 1.5 }, { waiting: '2' }, {}, { waiting: 2, more: true }])
      expect(await fixture.call('confirmWaitingLoss', bad)).toMatchObject({ ok: false, error: { kind: 'validation' } });

    expect(await fixture.call('confirmWaitingLoss', { waiting: 2 })).toMatchObject({ ok: true });
    expect(await fixture.call('forgetTill')).toMatchObject({ ok: true, data: { forgotten: { why: 'manager' } } });
    expect(fixture.core.workCopy.items()).toEqual([]);
    expect(fixture.log.text()).toMatch(/2 item\(s\) waiting in the outbox were lost, as the manager confirmed/);
  });

  test('destroys the data key and makes a new one, deletes the copy and every copy kept aside', async () => {
    const fixture = await till();
    await queue(fixture, item());
    await fixture.call('confirmWaitingLoss', { waiting: 1 });
    const oldKey = await grantKey(fixture);
    const oldSealed = await keyBytes(fixture);
    await writeFile(join(fixture.userDataDir, `${WORK_COPY_FILE}${SET_ASIDE_MARK}1700000000000`), 'sealed1:old');

    expect(await fixture.call('forgetTill')).toMatchObject({ ok: true });
    const names = await readdir(fixture.userDataDir);
    expect(names.filter((name) => name.startsWith(WORK_COPY_FILE))).toEqual([]);
    expect((await keyBytes(fixture)).equals(oldSealed)).toBe(false);
    const newKey = await grantKey(fixture);
    expect(newKey).not.toBe(oldKey);
    expect(await fixture.call('dataKey')).toMatchObject({ ok: true, data: { state: 'ready' } });
    // Nothing in the folder holds the old key, in any spelling.
    const raw = Buffer.from(oldKey, 'base64');
    for (const name of names) {
      const text = await readFile(join(fixture.userDataDir, name)).catch(() => Buffer.alloc(0));
      for (const spelling of [oldKey, raw.toString('base64url'), raw.toString('hex')])
        expect(text.includes(spelling), name).toBe(false);
    }

    // What is kept next is sealed under the new key, and a restart reads it as the till's own.
    const next = item();
    await queue(fixture, next);
    await fixture.restart();
    expect(await fixture.call('workCopy', {})).toMatchObject({ ok: true, data: { items: [next] } });
    expect(await fixture.call('dataKey')).toMatchObject({ ok: true, data: { state: 'ready', key: newKey } });
    // `forgotten` is this run's: a restart starts without it.
    const state = await fixture.call('getState');
    expect(state.ok && state.data.forgotten).toBeUndefined();
  });

  test('a confirmation holds two minutes, and serves one forgetting', async () => {
    let now = 1_000_000;
    const items: KeptItem[] = [item()];
    let forgets = 0;
    const forgetting = tillForgetting({
      copy: { items: () => items, forget: async (then) => void (await then?.()) },
      dataKey: { forget: async () => void forgets++ },
      log: createCapturedLog(),
      wording: () => ENGLISH,
      now: () => now,
    });
    expect(forgetting.refusal()).toMatchObject({ error: { code: 'work_waiting', waiting: 1 } });
    forgetting.confirm(1);
    now += CONFIRMATION_MS + 1;
    expect(forgetting.refusal()).toMatchObject({ error: { code: 'work_waiting' } });
    forgetting.confirm(1);
    expect(forgetting.refusal()).toBeNull();
    await forgetting.forget('manager');
    expect(forgets).toBe(1);
    expect(forgetting.refusal()).toMatchObject({ error: { code: 'work_waiting' } });
    expect(forgetting.last()).toEqual({ at: new Date(now).toISOString(), why: 'manager' });
  });
});

describe('switching to another service or programme forgets the old one’s data', () => {
  const A = 'https://a.loyalty.example';
  const B = 'https://b.loyalty.example';
  const PROGRAMME = '0c5b2a7e-8d4f-4a1b-9e3c-2f6d8a1b7c90';
  const OTHER_PROGRAMME = '9d1e7b44-2c3a-4f5e-8b6d-1a2b3c4d5e6f';

  test('another service address: refused while items wait, then forgotten once the manager confirms', async () => {
    const fixture = await till();
    expect(await fixture.call('updateSettings', { baseUrl: A })).toMatchObject({ ok: true });
    // A first address is a till being set up: nothing forgotten.
    let state = await fixture.call('getState');
    expect(state.ok && state.data.forgotten).toBeUndefined();
    await queue(fixture, item());

    expect(await fixture.call('updateSettings', { baseUrl: B, tillName: 'Till 9' })).toMatchObject(WAITING(1));
    state = await fixture.call('getState');
    expect(state.ok && state.data.settings).toMatchObject({ baseUrl: A, tillName: 'Till 1' });
    expect(fixture.core.workCopy.items()).toHaveLength(1);
    // The same address, however written, is no switch.
    expect(await fixture.call('updateSettings', { baseUrl: `${A}/v1/`, tillName: 'Till 2' })).toMatchObject({
      ok: true,
    });

    const key = await grantKey(fixture);
    await fixture.call('confirmWaitingLoss', { waiting: 1 });
    const switched = await fixture.call('updateSettings', { baseUrl: B });
    expect(switched).toMatchObject({ ok: true, data: { settings: { baseUrl: B }, forgotten: { why: 'switch' } } });
    expect(fixture.core.workCopy.items()).toEqual([]);
    expect(await grantKey(fixture)).not.toBe(key);
    expect(fixture.log.text()).toMatch(/the till was switched to another service/);
  });

  test('another programme forgets; choosing a first one does not', async () => {
    const fixture = await till();
    expect(await fixture.call('updateSettings', { programId: PROGRAMME })).toMatchObject({ ok: true });
    let state = await fixture.call('getState');
    expect(state.ok && state.data.forgotten).toBeUndefined();
    expect(await fixture.call('updateSettings', { programId: OTHER_PROGRAMME })).toMatchObject({
      ok: true,
      data: { forgotten: { why: 'switch' } },
    });
    state = await fixture.call('getState');
    expect(state.ok && state.data.settings.programId).toBe(OTHER_PROGRAMME);
  });

  test('a new API key, or the key removed, is no switch: the queue stays and nothing is forgotten', async () => {
    const fixture = await till();
    expect(await fixture.call('setApiKey', { apiKey: 'sk_live_first_key_0001' })).toMatchObject({ ok: true });
    const waiting = item();
    await queue(fixture, waiting);
    const key = await grantKey(fixture);
    // A refused key replaced by the right one, for the same service: the queue must go on.
    const replaced = await fixture.call('setApiKey', { apiKey: 'sk_live_other_key_0002' });
    expect(replaced).toMatchObject({ ok: true, data: { key: { lastFour: '0002' } } });
    expect(replaced.ok && replaced.data.forgotten).toBeUndefined();
    const cleared = await fixture.call('clearApiKey');
    expect(cleared.ok && cleared.data.forgotten).toBeUndefined();
    expect(fixture.core.workCopy.items()).toEqual([waiting]);
    expect(await grantKey(fixture)).toBe(key);
  });
});
