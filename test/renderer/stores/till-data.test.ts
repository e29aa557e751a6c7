/**
 * The till's data as a whole (renderer/stores/till-data.ts): "Forget this till's data" as the
 * page drives it (the manager PIN asked for `forgetTill`, waiting items confirmed first, the
 * database deleted, the page started again blank with a notice that says why), a switch of
 * service followed the same way, and the notices for a lost key and another key, in words for
 * each reason (a copy the main process kept aside goes with a lost key, whose words say it).
 */
import { Dexie } from 'dexie';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import type { TillState } from '../../../common/contract';
import { i18n } from '../../../renderer/i18n';
import type { Approver } from '../../../renderer/lib/approval';
import { dataNoticeWords, waitingLossLines } from '../../../renderer/lib/forget-words';
import { useOfflineStore } from '../../../renderer/stores/offline';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { setPageReload, useTillDataStore } from '../../../renderer/stores/till-data';
import { installFakeTill, tillState, type FakeTill } from '../support/fake-till';

const FORGOTTEN_AT = '2026-11-28T10:02:00.000Z';

let till: FakeTill;
let reloads: number;

/** A page of the till starting: settings read, the till's data followed. */
async function startPage(state: TillState = tillState()) {
  setActivePinia(createPinia());
  till.respond('getState', () => ({ ok: true, data: state }));
  await useSettingsStore().load();
  const data = useTillDataStore();
  data.follow();
  return data;
}

/** Something in the page's database, so its deletion shows. */
async function somethingKept(): Promise<void> {
  await till.db.meta.put({ key: 'nextCustomerPk', value: 7 });
}

async function outboxItem(kind: 'redeem' | 'register'): Promise<void> {
  // The outbox is sealed: the offline core attaches the data key at the database's opening.
  useOfflineStore().services();
  await till.db.open();
  await till.db.outbox.add({
    uid: crypto.randomUUID(),
    kind,
    state: 'pending',
    queuedAt: '2026-11-28T09:00:00.000Z',
    firstAttemptAt: null,
    lastAttemptAt: null,
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
    note: null,
    ...(kind === 'redeem'
      ? {
          code: 'RW-LAYLA001',
          phoneE164: '+966501234567',
          branchId: null,
          orderReference: null,
          customerId: 'c-1',
          customerName: 'Layla Haddad',
          serviceReward: null,
        }
      : {
          name: 'Omar',
          phoneE164: '+966501112222',
          email: null,
          birthday: null,
          customerPk: 1,
          localCustomerId: 'local-1',
        }),
  } as never);
}

beforeEach(() => {
  sessionStorage.clear();
  i18n.global.locale.value = 'en';
  setActivePinia(createPinia());
  till = installFakeTill();
  reloads = 0;
  setPageReload(() => reloads++);
  till.respond('forgetTill', () => ({
    ok: true,
    data: { ...tillState(), forgotten: { at: FORGOTTEN_AT, why: 'manager' } },
  }));
  till.respond('confirmWaitingLoss', () => ({ ok: true, data: null }));
});
afterEach(async () => {
  await Dexie.delete(till.db.name);
});

describe('Forget this till’s data', () => {
  it('asks the manager for `forgetTill`, deletes the database, and starts the page again blank, saying why', async () => {
    const data = await startPage();
    await somethingKept();
    const asked: string[] = [];
    const approve: Approver = (reason, call) => {
      asked.push(reason);
      return call();
    };
    expect(await data.forget(approve)).toEqual({ step: 'forgotten' });
    expect(asked).toEqual(['forgetTill']);
    expect(till.callsTo('forgetTill')).toHaveLength(1);
    expect(till.callsTo('confirmWaitingLoss')).toEqual([]);
    expect(await Dexie.exists(till.db.name)).toBe(false);
    expect(reloads).toBe(1);

    // The page after the reload: blank, and it says why, once.
    const again = await startPage();
    expect(again.notice).toEqual({ reason: 'forgotten', at: FORGOTTEN_AT });
    expect(dataNoticeWords(again.notice!)).toMatch(
      /^This till’s data was forgotten at .+ by the manager; the offline cache fills again\.$/,
    );
    again.dismiss();
    expect(again.notice).toBeNull();
    expect((await startPage()).notice).toBeNull();
  });

  it('with items waiting in the outbox, asks first, naming how many of each kind; then confirms that many', async () => {
    const data = await startPage();
    await outboxItem('redeem');
    await outboxItem('redeem');
    await outboxItem('register');
    const step = await data.forget(undefined, 0);
    expect(step).toEqual({ step: 'waiting', waiting: 3, redemptions: 2, registrations: 1 });
    expect(till.callsTo('forgetTill')).toEqual([]);
    if (step.step !== 'waiting') return;
    const [lossLine, meansLine] = waitingLossLines(step, 'forget');
    expect(lossLine).toBe(
      'Forgetting this till’s data deletes them: 2 redemptions and 1 registration, queued while the loyalty service could not be reached.',
    );
    expect(meansLine).toMatch(/^They will never reach the loyalty service/);

    expect(await data.forget(undefined, 3)).toEqual({ step: 'forgotten' });
    expect(till.callsTo('confirmWaitingLoss')).toEqual([{ waiting: 3 }]);
    expect(till.callsTo('forgetTill')).toHaveLength(1);
    expect(await Dexie.exists(till.db.name)).toBe(false);
  });

  it('when the main process holds more waiting than the page, its number is the one confirmed', async () => {
    const data = await startPage();
    till.respond('forgetTill', () => ({
      ok: false,
      error: { kind: 'validation', code: 'work_waiting', message: 'Items still wait.', waiting: 2 },
    }));
    expect(await data.forget()).toEqual({ step: 'waiting', waiting: 2, redemptions: 0, registrations: 0 });
    expect(reloads).toBe(0);
    expect(await Dexie.exists(till.db.name)).toBe(true);
  });

  it('refused for want of the PIN (the manager cancelled), nothing happens', async () => {
    const data = await startPage();
    till.respond('forgetTill', () => ({
      ok: false,
      error: { kind: 'unauthorized', code: 'manager_pin_required', message: 'PIN', action: 'forgetTill' },
    }));
    expect(await data.forget()).toEqual({ step: 'cancelled' });
    expect(reloads).toBe(0);
  });
});

describe('following the till’s state', () => {
  it('a switch to another service, seen in a state answered later, starts the page blank once Settings is saved', async () => {
    await startPage();
    await somethingKept();
    const settings = useSettingsStore();
    settings.saving = true;
    settings.state = { ...tillState(), forgotten: { at: FORGOTTEN_AT, why: 'switch' } };
    await nextTick();
    // The key is still being saved after the address: nothing is deleted under it.
    expect(reloads).toBe(0);
    settings.saving = false;
    await vi.waitFor(() => expect(reloads).toBe(1));
    expect(await Dexie.exists(till.db.name)).toBe(false);
    const again = await startPage({ ...tillState(), forgotten: { at: FORGOTTEN_AT, why: 'switch' } });
    expect(again.notice).toEqual({ reason: 'switched', at: FORGOTTEN_AT });
    expect(dataNoticeWords(again.notice!)).toMatch(/switched to another service or programme at/);
    // A page that starts after the switch does not forget again.
    expect(reloads).toBe(1);
  });

  it('a lost data key is said in the words of its reason', async () => {
    const reasons = {
      unreadable: /could not be opened \(another user account or keyring, or a changed file\)/,
      store_unavailable: /key store did not answer/,
      missing: /data key is missing from its data folder/,
      not_kept: /cannot store a data key/,
    } as const;
    for (const [reason, words] of Object.entries(reasons)) {
      sessionStorage.clear();
      const state = tillState();
      const data = await startPage({
        ...state,
        dataKey: { ...state.dataKey, state: 'lost', loss: { reason: reason as never, lostAt: FORGOTTEN_AT } },
      });
      expect(data.notice).toEqual({ reason: 'key_lost', at: FORGOTTEN_AT, loss: reason });
      expect(dataNoticeWords(data.notice!)).toMatch(words);
      expect(dataNoticeWords(data.notice!)).toMatch(/starts blank/);
    }
    i18n.global.locale.value = 'ar';
    expect(dataNoticeWords({ reason: 'key_lost', at: FORGOTTEN_AT, loss: 'missing' })).toMatch(
      /مفتاح بيانات هذا الجهاز مفقود/,
    );
  });

  it('the database under another key says so', async () => {
    const data = await startPage();
    const offline = useOfflineStore();
    offline.keyProblem = { reason: 'other_key', cleared: true, at: '2026-11-28T10:03:00.000Z' };
    await nextTick();
    expect(data.notice).toMatchObject({ reason: 'other_key' });
    expect(dataNoticeWords(data.notice!)).toMatch(/sealed under another key/);
  });
});
