import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinkMessage } from '../../../common/contract';
import { useCashierStore } from '../../../renderer/stores/cashier';
import { useLinksStore } from '../../../renderer/stores/links';
import { exportedJournalCsv } from '../../../renderer/lib/journal-csv';
import { useOfflineStore } from '../../../renderer/stores/offline';
import { useRewardsStore } from '../../../renderer/stores/rewards';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { card, customer, installFakeTill, reward, tillState, type FakeTill } from '../support/fake-till';

const LINK_ID = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';
const ROSTER = [
  { name: 'Sara Ali', number: '12' },
  { name: 'Omar', number: null },
];

describe('who is at the till', () => {
  let till: FakeTill;

  beforeEach(async () => {
    localStorage.clear();
    setActivePinia(createPinia());
    till = installFakeTill();
    till.respond('getState', () => ({ ok: true, data: tillState({ cashiers: ROSTER }) }));
    till.respond('checkReward', () => ({ ok: true, data: reward({ price: 50, name: 'Coffee for points' }) }));
    till.respond('sendLinkOutcome', () => ({ ok: true, data: { callback: 'sending' } }));
    await useSettingsStore().load();
  });

  async function redeemOnline() {
    till.respond('redeemReward', () => ({
      ok: true,
      data: { reward: reward({ status: 'redeemed', price: 50, name: 'Coffee for points' }), card: card(130) },
    }));
    const rewards = useRewardsStore();
    rewards.start('RW-LAYLA001', customer());
    expect(await rewards.check()).toBe(true);
    expect(await rewards.redeem()).toBe(true);
    const offline = useOfflineStore().services();
    await offline.cacheWritesSettled();
    return offline;
  }

  it('offers Settings’ list as labels, and remembers the choice across a reload of the page', () => {
    const cashier = useCashierStore();
    expect(cashier.choices).toEqual(['Sara Ali (12)', 'Omar']);
    cashier.choose('Omar');
    setActivePinia(createPinia());
    expect(useCashierStore().current).toBe('Omar');
  });

  it('records the chosen cashier, the reward and its points in the journal of an online redemption', async () => {
    useCashierStore().choose('Omar');
    const offline = await redeemOnline();
    expect(await offline.journalSince('2000-01-01T00:00:00.000Z')).toMatchObject([
      {
        kind: 'redeem',
        outcome: 'redeemed',
        outboxSeq: null,
        cashier: 'Omar',
        rewardName: 'Coffee for points',
        points: 50,
        customerName: '',
      },
    ]);
    // Work the service answered at once never waited in the outbox: the Outbox screen's list stays its own.
    expect(await offline.journal()).toEqual([]);
    expect((await offline.counts()).done).toBe(0);
    expect(exportedJournalCsv(await offline.journalExport())).toContain(',Omar,done,Coffee for points,50');
  });

  it('records the cashier on an outbox item whose answer was lost, and lists it open in the CSV', async () => {
    useCashierStore().choose('Sara Ali (12)');
    till.respond('redeemReward', () => ({
      ok: false,
      error: { kind: 'server', status: 503, message: 'The loyalty service had a problem (503).' },
    }));
    const rewards = useRewardsStore();
    rewards.start('RW-LAYLA001', customer());
    expect(await rewards.check()).toBe(true);
    expect(await rewards.redeem()).toBe(true);
    const offline = useOfflineStore().services();
    expect(await offline.outboxItems()).toMatchObject([{ kind: 'redeem', state: 'pending', cashier: 'Sara Ali (12)' }]);
    const rows = exportedJournalCsv(await offline.journalExport())
      .trimEnd()
      .split('\r\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('RW-LAYLA001');
    expect(rows[1]).toContain(',Sara Ali (12),waiting,');
  });

  it('takes the cashier a link names (by number, as the POS knows them) and the callback carries it', async () => {
    till.respond('redeemReward', () => ({
      ok: true,
      data: { reward: reward({ status: 'redeemed' }), card: card(130) },
    }));
    const message: LinkMessage = {
      kind: 'request',
      id: LINK_ID,
      request: { route: 'reward', code: 'RW-LAYLA001', phone: '+966501234567', order: 'ORD-9', cashier: '12' },
      receivedAt: new Date().toISOString(),
    };
    useLinksStore().receive(message);
    const rewards = useRewardsStore();
    await vi.waitFor(() => expect(rewards.canRedeem).toBe(true));
    expect(useCashierStore()).toMatchObject({ current: 'Sara Ali (12)', source: 'link' });
    expect(await rewards.redeem()).toBe(true);
    expect(till.callsTo('sendLinkOutcome')).toMatchObject([{ link_id: LINK_ID, cashier: 'Sara Ali (12)' }]);
    const offline = useOfflineStore().services();
    await offline.cacheWritesSettled();
    expect(await offline.journalSince('2000-01-01T00:00:00.000Z')).toMatchObject([
      { orderReference: 'ORD-9', cashier: 'Sara Ali (12)' },
    ]);
  });

  it('journals a registration the service created and a correction, each with the cashier', async () => {
    useCashierStore().choose('Omar');
    const offline = useOfflineStore().services();
    till.respond('registerCustomer', () => ({ ok: true, status: 201, data: { customer: customer(), created: true } }));
    expect(await offline.registerCustomer({ name: 'Layla Haddad', phone: '+966501234567' })).toMatchObject({
      outcome: 'registered',
    });
    till.respond('updateCustomer', () => ({ ok: true, data: customer({ name: 'Layla H.' }) }));
    expect((await offline.updateCustomer({ id: customer().id, name: 'Layla H.' })).ok).toBe(true);
    // A phone the service already knew registers nobody new.
    till.respond('registerCustomer', () => ({ ok: true, status: 200, data: { customer: customer(), created: false } }));
    await offline.registerCustomer({ name: 'Layla Haddad', phone: '+966501234567' });
    await offline.cacheWritesSettled();
    expect(await offline.journalSince('2000-01-01T00:00:00.000Z')).toMatchObject([
      { kind: 'register', outcome: 'registered', cashier: 'Omar', phoneE164: '+966501234567' },
      { kind: 'correct', outcome: 'corrected', cashier: 'Omar', customerName: 'Layla H.' },
    ]);
  });
});
