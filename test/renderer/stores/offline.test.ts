import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ConnectionStatus } from '../../../common/contract';
import { useCustomersStore } from '../../../renderer/stores/customers';
import { useOfflineStore } from '../../../renderer/stores/offline';
import { useRewardsStore } from '../../../renderer/stores/rewards';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { card, customer, installFakeTill, reward, tillState, type FakeTill } from '../support/fake-till';

const unreachable = () => ({ ok: false as const, error: { kind: 'offline' as const, message: 'Connection refused.' } });
const reachable = (): { ok: true; data: ConnectionStatus } => ({
  ok: true,
  data: { mode: 'service', baseUrl: 'http://127.0.0.1:4010', reachable: true, checkedAt: '2026-11-22T10:00:00+00:00' },
});

describe('offline store: the outbox as the cashier drives it', () => {
  let till: FakeTill;

  beforeEach(async () => {
    setActivePinia(createPinia());
    till = installFakeTill();
    till.respond('getState', () => ({ ok: true, data: tillState({ allowOfflineRedemption: true }) }));
    await useSettingsStore().load();
    till.respond('getCustomer', () => ({ ok: true, data: customer({ rewards: [reward()] }) }));
    till.respond('connectionStatus', reachable);
  });

  /** Layla opened online, then the service goes away and a redemption is queued. */
  async function queuedOffline(orderReference = 'POS-1'): Promise<void> {
    const customers = useCustomersStore();
    await customers.open(customer().id);
    till.respond('checkReward', unreachable);
    till.respond('redeemReward', unreachable);
    const rewards = useRewardsStore();
    rewards.start('RW-LAYLA001', customers.current);
    await rewards.check();
    rewards.draft.orderReference = orderReference;
    expect(await rewards.redeem()).toBe(true);
    await useOfflineStore().loadOutbox();
  }

  it('a cache write-through that fails is reported to the log, and the answer is still shown', async () => {
    const offline = useOfflineStore();
    const customers = useCustomersStore();
    till.respond('searchCustomers', () => ({
      ok: true,
      data: [customer()],
      meta: { current_page: 1, last_page: 1, per_page: 20, total: 1 },
    }));
    // The cache cannot be written: the database is gone from under the till.
    till.db.close();
    customers.query = 'Layla';
    await customers.search();
    expect(customers.results.map((found) => found.id)).toEqual([customer().id]);
    await offline.services().cacheWritesSettled();
    const reports = till.callsTo('logError') as Array<{ source?: string }>;
    expect(reports.some((report) => report.source?.startsWith('offline cache'))).toBe(true);
  });

  it('counts what waits, and "Retry now" sends it at once even inside its back-off', async () => {
    await queuedOffline();
    const offline = useOfflineStore();
    expect(offline.counts).toMatchObject({ pending: 1, done: 0 });
    // A background attempt while still offline puts the item into back-off.
    await offline.services().replayNow();
    const [waiting] = await offline.services().outboxItems();
    expect(Date.parse(waiting!.nextAttemptAt!)).toBeGreaterThan(Date.now());

    till.respond('redeemReward', () => ({
      ok: true,
      data: { reward: reward({ status: 'redeemed', redeemed_at: '2026-11-22T10:05:00+00:00' }), card: card(150) },
    }));
    const run = await offline.retryNow();
    expect(run).toMatchObject({ ran: true, done: 1 });
    expect(offline.counts).toMatchObject({ pending: 0, done: 1 });
    expect(offline.journal).toMatchObject([{ outcome: 'redeemed', code: 'RW-LAYLA001', orderReference: 'POS-1' }]);
    expect(till.callsTo('redeemReward').at(-1)).toEqual({
      reward_code: 'RW-LAYLA001',
      phone: '+966501234567',
      branch_id: tillState().settings.branchId,
      order_reference: 'POS-1',
    });
    till.respond('saveExport', () => ({ ok: true, data: { outcome: 'saved', downloadPath: null } }));
    expect(await offline.exportJournal()).toMatchObject({ ok: true, entries: 1 });
    expect((till.callsTo('saveExport')[0] as { csv: string }).csv).toContain('RW-LAYLA001,Layla Haddad,POS-1');
  });

  it('pauses on a refused key, says so, and goes on once the key is changed', async () => {
    await queuedOffline();
    const offline = useOfflineStore();
    till.respond('redeemReward', () => ({
      ok: false,
      error: { kind: 'unauthorized', status: 401, message: 'The API key was refused.' },
    }));
    await offline.retryNow();
    expect(offline.pause?.message).toContain('rejected the API key');
    expect(offline.counts.pending).toBe(1); // nothing lost

    till.respond('redeemReward', () => ({
      ok: true,
      data: { reward: reward({ status: 'redeemed' }), card: card(150) },
    }));
    await offline.resumeAfterKeyChange();
    expect(offline.pause).toBeNull();
    await offline.retryNow();
    expect(offline.counts).toMatchObject({ pending: 0, done: 1 });
  });

  it('keeps a conflict until a person acknowledges it, then keeps it in the journal', async () => {
    await queuedOffline('POS-2');
    const offline = useOfflineStore();
    till.respond('redeemReward', () => ({
      ok: false,
      error: { kind: 'reward_unavailable', status: 422, message: 'Not available.' },
    }));
    // Redeemed elsewhere an hour before this till's first attempt.
    const earlier = new Date(Date.now() - 3_600_000).toISOString();
    till.respond('checkReward', () => ({ ok: true, data: reward({ status: 'redeemed', redeemed_at: earlier }) }));
    await offline.retryNow();
    expect(offline.counts).toMatchObject({ pending: 0, conflict: 1 });
    const [conflict] = offline.items;
    expect(conflict).toMatchObject({
      state: 'conflict',
      orderReference: 'POS-2',
      serviceReward: { redeemed_at: earlier },
    });

    // Another replay leaves it where it is.
    await offline.retryNow();
    expect(offline.counts.conflict).toBe(1);

    expect(await offline.acknowledge(conflict!.seq!)).toBe(true);
    expect(offline.counts).toMatchObject({ conflict: 0, done: 1 });
    expect(offline.journal).toMatchObject([{ outcome: 'conflict_acknowledged', orderReference: 'POS-2' }]);
  });

  it('says a part-of-the-number search may be incomplete while the offline index loads', async () => {
    const customers = useCustomersStore();
    till.respond('searchCustomers', unreachable);
    customers.query = '1234';
    await customers.search();
    expect(customers.resultsFromCache).toMatchObject({ complete: false });
  });
});
