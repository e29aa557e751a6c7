import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Redemption, Result } from '../../../common/contract';
import { offlineVerdictWords } from '../../../renderer/lib/rewards-words';
import { useCustomersStore } from '../../../renderer/stores/customers';
import { exportedJournalCsv } from '../../../renderer/lib/journal-csv';
import { useOfflineStore } from '../../../renderer/stores/offline';
import { useRewardsStore } from '../../../renderer/stores/rewards';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { card, customer, installFakeTill, reward, tillState, type FakeTill } from '../support/fake-till';

describe('rewards store', () => {
  let till: FakeTill;

  beforeEach(async () => {
    setActivePinia(createPinia());
    till = installFakeTill();
    till.respond('getState', () => ({ ok: true, data: tillState() }));
    await useSettingsStore().load();
  });

  async function checked(code = 'RW-LAYLA001') {
    const rewards = useRewardsStore();
    till.respond('checkReward', () => ({ ok: true, data: reward({ code }) }));
    rewards.start(code.toLowerCase(), customer());
    expect(await rewards.check()).toBe(true);
    return rewards;
  }

  it('checks with the on-screen customer’s phone in E.164 and the code upper-cased', async () => {
    await checked();
    expect(till.callsTo('checkReward')).toEqual([{ reward_code: 'RW-LAYLA001', phone: '+966501234567' }]);
  });

  it('online too, the check asks the shop: the service’s “available” does not hide another till’s claim', async () => {
    till.respond('shopCheck', () => ({
      ok: true,
      data: { enabled: true, claimedBy: { till: 'Till 1', at: '2026-11-26T11:35:00.000Z' }, unreachable: [] },
    }));
    const rewards = await checked();
    expect(till.callsTo('shopCheck')).toEqual([{ reward_code: 'RW-LAYLA001' }]);
    expect(rewards.claimedElsewhere).toEqual({ till: 'Till 1', at: '2026-11-26T11:35:00.000Z' });
    expect(rewards.canRedeem).toBe(false);
  });

  it('a new reward forgets the last check and redeem whole: every reading is as on a fresh screen', async () => {
    const fresh = { ...useRewardsStore().$state };
    const readings = (store: ReturnType<typeof useRewardsStore>) => ({
      reward: store.reward,
      checkedFor: store.checkedFor,
      offlineCheck: store.offlineCheck,
      pendingHere: store.pendingHere,
      claimedElsewhere: store.claimedElsewhere,
      redemption: store.redemption,
      queued: store.queued,
      redeemError: store.redeemError,
      refusedNote: store.refusedNote,
      unavailableNote: store.unavailableNote,
      splitTills: store.splitTills,
      canRedeem: store.canRedeem,
    });
    const before = readings(useRewardsStore());
    const rewards = await checked();
    till.respond('redeemReward', () => ({ ok: true, status: 200, data: { reward: null, card: null } }));
    expect(await rewards.redeem()).toBe(true);
    expect(readings(rewards)).not.toEqual(before);
    rewards.start();
    expect(readings(rewards)).toEqual(before);
    expect(rewards.checkOutcome).toEqual({ kind: 'none' });
    expect(rewards.redeemOutcome).toEqual({ kind: 'none' });
    expect(Object.keys(rewards.$state)).toEqual(Object.keys(fresh));
  });

  it('asks for a phone when no customer is on screen, reading local numbers with the till’s country', async () => {
    const rewards = useRewardsStore();
    till.respond('checkReward', () => ({ ok: true, data: reward() }));
    rewards.start('RW-LAYLA001');
    expect(await rewards.check()).toBe(false);
    expect(rewards.fieldErrors.phone).toMatch(/phone number/);
    expect(till.callsTo('checkReward')).toHaveLength(0);
    rewards.draft.phone = '050 123 4567';
    expect(await rewards.check()).toBe(true);
    expect(till.callsTo('checkReward')).toEqual([{ reward_code: 'RW-LAYLA001', phone: '+966501234567' }]);
  });

  it('will not redeem a code that was not checked, or whose code changed since the check', async () => {
    const rewards = useRewardsStore();
    rewards.start('RW-LAYLA001', customer());
    expect(await rewards.redeem()).toBe(false);
    const checkedOne = await checked();
    checkedOne.draft.code = 'RW-LAYLA002';
    expect(await checkedOne.redeem()).toBe(false);
    expect(till.callsTo('redeemReward')).toHaveLength(0);
  });

  it('sends one redeem however often it is asked, with the branch id and order reference', async () => {
    const rewards = await checked();
    let release: (value: Result<Redemption>) => void = () => undefined;
    till.respond('redeemReward', () => new Promise((resolve) => (release = resolve)));
    rewards.draft.orderReference = ' POS-77 ';
    const first = rewards.redeem();
    const second = rewards.redeem(); // the double click
    const third = rewards.redeem(); // and a repeated Enter
    await vi.waitFor(() => expect(till.callsTo('redeemReward')).toHaveLength(1));
    release({
      ok: true,
      data: { reward: reward({ status: 'redeemed', redeemed_at: '2026-11-22T10:00:00+00:00' }), card: card(130) },
    });
    expect(await Promise.all([first, second, third])).toEqual([true, false, false]);
    expect(await rewards.redeem()).toBe(false); // and after success
    expect(till.callsTo('redeemReward')).toEqual([
      {
        reward_code: 'RW-LAYLA001',
        phone: '+966501234567',
        branch_id: '7a1e9c40-2f3b-4d5e-8a6b-0c1d2e3f4a5b',
        order_reference: 'POS-77',
      },
    ]);
    expect(rewards.redemption?.card?.points).toBe(130);
  });

  it('updates the customer on screen with the card after redemption and drops the used reward', async () => {
    const customers = useCustomersStore();
    customers.current = customer({ rewards: [reward()] });
    const rewards = useRewardsStore();
    till.respond('checkReward', () => ({ ok: true, data: reward() }));
    till.respond('redeemReward', () => ({
      ok: true,
      data: { reward: reward({ status: 'redeemed' }), card: card(130) },
    }));
    rewards.start('RW-LAYLA001', customers.current);
    await rewards.check();
    await rewards.redeem();
    expect(customers.current?.cards[0]?.points).toBe(130);
    expect(customers.current?.rewards).toEqual([]);
  });

  it('explains a refused redeem with the date the service says it was used', async () => {
    const rewards = await checked();
    till.respond('redeemReward', () => ({
      ok: false,
      error: {
        kind: 'reward_unavailable',
        status: 422,
        code: 'reward_unavailable',
        message: 'The reward is not available.',
      },
    }));
    till.respond('checkReward', () => ({
      ok: true,
      data: reward({ status: 'redeemed', redeemed_at: '2026-11-20T09:30:00+00:00' }),
    }));
    expect(await rewards.redeem()).toBe(false);
    expect(rewards.unavailableNote).toMatch(/^This reward was already used on 20 Nov 2026/);
    expect(rewards.canRedeem).toBe(false);
    expect(await rewards.redeem()).toBe(false);
    expect(till.callsTo('redeemReward')).toHaveLength(1);
  });

  it('records an unanswered attempt at once: the service may have redeemed it, and no second redeem is offered', async () => {
    const rewards = await checked();
    till.respond('redeemReward', () => ({ ok: false, error: { kind: 'timeout', message: 'No answer in time.' } }));
    expect(await rewards.redeem()).toBe(true);
    expect(rewards.answerLost).toBe(true);
    expect(rewards.queued).toMatchObject({ code: 'RW-LAYLA001', state: 'pending', attempts: 1 });
    expect(rewards.queued?.unanswered).toHaveLength(1);
    expect(rewards.redeemError).toBeNull();
    expect(rewards.canRedeem).toBe(false);
    // A fresh check of the same code says it waits here; a redeem sends nothing.
    expect(await rewards.check()).toBe(true);
    expect(rewards.pendingHere).toBe(true);
    expect(await rewards.redeem()).toBe(false);
    expect(till.callsTo('redeemReward')).toHaveLength(1);
  });

  it('records a 5xx answer as unknown, even with offline redemption turned off', async () => {
    expect(useSettingsStore().allowOfflineRedemption).toBe(false);
    const rewards = await checked();
    till.respond('redeemReward', () => ({
      ok: false,
      error: { kind: 'server', status: 503, message: 'The loyalty service had a problem (503).' },
    }));
    expect(await rewards.redeem()).toBe(true);
    expect(rewards.answerLost).toBe(true);
    expect(await useOfflineStore().services().outboxItems()).toMatchObject([
      { kind: 'redeem', code: 'RW-LAYLA001', state: 'pending', unanswered: [expect.any(Object)] },
    ]);
  });

  it('a 2xx whose card and reward could not be read is still "redeemed", with the checked reward', async () => {
    const rewards = await checked();
    till.respond('redeemReward', () => ({ ok: true, status: 200, data: { reward: null, card: null } }));
    expect(await rewards.redeem()).toBe(true);
    expect(rewards.redemption).toEqual({ reward: null, card: null });
    expect(rewards.reward).toMatchObject({ code: 'RW-LAYLA001', status: 'redeemed' });
    expect(rewards.redeemedAt).not.toBeNull();
    expect(rewards.canRedeem).toBe(false);
    const offline = useOfflineStore().services();
    await offline.cacheWritesSettled();
    expect(await offline.journal()).toMatchObject([
      { kind: 'redeem', code: 'RW-LAYLA001', outcome: 'redeemed', note: { code: 'confirmed_unread' } },
    ]);
    // Kept as a code, worded when shown.
    expect(exportedJournalCsv(await offline.journalExport())).toContain('its answer could not be read in full');
  });

  it('keeps the service’s field errors beside the fields', async () => {
    const rewards = useRewardsStore();
    till.respond('checkReward', () => ({
      ok: false,
      error: {
        kind: 'validation',
        status: 422,
        message: 'reward_code is invalid',
        fields: { reward_code: 'Unknown format.' },
      },
    }));
    rewards.start('RW-ABC', customer());
    expect(await rewards.check()).toBe(false);
    expect(rewards.fieldErrors.reward_code).toBe('Unknown format.');
    expect(rewards.draft.code).toBe('RW-ABC');
  });

  it('needs a new check when the code is changed after checking', async () => {
    const rewards = await checked();
    rewards.draft.code = 'RW-LAYLA002';
    expect(rewards.canRedeem).toBe(false);
    expect(await rewards.redeem()).toBe(false);
    expect(till.callsTo('redeemReward')).toHaveLength(0);
  });

  describe('while the service cannot be reached', () => {
    const unreachable = () => ({
      ok: false as const,
      error: { kind: 'offline' as const, message: 'Connection refused.' },
    });

    /** Layla opened once online, so her rewards are in the cache; then the service goes away. */
    async function cachedThenOffline(allowOfflineRedemption: boolean) {
      till.respond('getState', () => ({ ok: true, data: tillState({ allowOfflineRedemption }) }));
      await useSettingsStore().load();
      till.respond('getCustomer', () => ({ ok: true, data: customer({ rewards: [reward()] }) }));
      const customers = useCustomersStore();
      expect(await customers.open(customer().id)).toBe(true);
      till.respond('checkReward', unreachable);
      till.respond('redeemReward', unreachable);
      till.respond('getCustomer', unreachable);
      return customers;
    }

    it('checks a cached code against the cache and says so', async () => {
      const customers = await cachedThenOffline(true);
      const rewards = useRewardsStore();
      rewards.start('RW-LAYLA001', customers.current);
      expect(await rewards.check()).toBe(true);
      expect(rewards.offlineCheck).toMatchObject({ verdict: 'available', source: 'cache' });
      expect(rewards.offlineCheck?.cachedAt).toBeTruthy();
      expect(rewards.canRedeem).toBe(true);
    });

    it('does not accept a code that is not in the cache', async () => {
      const customers = await cachedThenOffline(true);
      const rewards = useRewardsStore();
      rewards.start('RW-NOTCACHED9', customers.current);
      expect(await rewards.check()).toBe(true);
      expect(rewards.offlineCheck?.verdict).toBe('unverifiable');
      // A verdict, never words: the screen words it.
      expect(rewards.offlineCheck).not.toHaveProperty('message');
      expect(offlineVerdictWords(rewards.offlineCheck!.verdict)).toContain('cannot be verified offline');
      expect(rewards.canRedeem).toBe(false);
    });

    it('queues the redemption, marks the reward pending, and will not queue it twice', async () => {
      const customers = await cachedThenOffline(true);
      const rewards = useRewardsStore();
      rewards.start('RW-LAYLA001', customers.current);
      await rewards.check();
      rewards.draft.orderReference = 'POS-9';
      expect(await rewards.redeem()).toBe(true);
      expect(rewards.queued).toMatchObject({ code: 'RW-LAYLA001', orderReference: 'POS-9', state: 'pending' });
      expect(customers.origin?.pendingCodes).toEqual(['RW-LAYLA001']);
      const stored = await useOfflineStore().services().outboxItems();
      expect(stored).toMatchObject([
        { code: 'RW-LAYLA001', orderReference: 'POS-9', branchId: tillState().settings.branchId },
      ]);

      rewards.start('RW-LAYLA001', customers.current);
      await rewards.check();
      expect(rewards.pendingHere).toBe(true);
      expect(rewards.canRedeem).toBe(false);
      expect(await useOfflineStore().services().outboxItems()).toHaveLength(1);
    });

    describe('asking the shop’s other tills first', () => {
      const SHOP_OFF = { enabled: false, claimedBy: null, unreachable: [] };

      async function checkedOffline() {
        const customers = await cachedThenOffline(true);
        const rewards = useRewardsStore();
        rewards.start('RW-LAYLA001', customers.current);
        expect(await rewards.check()).toBe(true);
        // Every call from here on is the redeem's.
        till.calls.length = 0;
        return rewards;
      }

      const claimOk = () => ({
        ok: true as const,
        data: { enabled: true, winner: { till: 'Till 1', at: '2026-11-26T09:00:00.000Z' }, won: true, unreachable: [] },
      });

      it('refuses a reward another till claimed, naming the till and the time, and queues nothing', async () => {
        const rewards = await checkedOffline();
        till.respond('shopCheck', () => ({
          ok: true,
          data: { enabled: true, claimedBy: { till: 'Till 2', at: '2026-11-26T09:15:00.000Z' }, unreachable: [] },
        }));
        till.respond('shopClaim', claimOk);
        expect(await rewards.redeem()).toBe(false);
        expect(rewards.refusedNote).toMatch(
          /^Already redeemed at Till 2 at 26 Nov 2026, .+ \(waiting to be sent\)\. Do not apply this reward\.$/,
        );
        expect(rewards.queued).toBeNull();
        expect(rewards.canRedeem).toBe(false);
        expect(rewards.claimedElsewhere).toEqual({ till: 'Till 2', at: '2026-11-26T09:15:00.000Z' });
        expect(till.callsTo('shopCheck')).toEqual([{ reward_code: 'RW-LAYLA001' }]);
        expect(till.callsTo('shopClaim')).toHaveLength(0);
        expect(till.callsTo('redeemReward')).toHaveLength(0);
        expect(await useOfflineStore().services().outboxItems()).toHaveLength(0);
        // The refused attempt is kept: who, which reward, which till held it; in the CSV too.
        const services = useOfflineStore().services();
        const refused = await vi.waitFor(async () => {
          const found = (await services.journalSince('2000-01-01T00:00:00.000Z')).filter(
            (entry) => entry.outcome === 'refused_elsewhere',
          );
          expect(found).toHaveLength(1);
          return found[0]!;
        });
        expect(refused).toMatchObject({
          kind: 'redeem',
          code: 'RW-LAYLA001',
          heldBy: { till: 'Till 2', at: '2026-11-26T09:15:00.000Z' },
          note: { code: 'claimed_elsewhere', till: 'Till 2', at: '2026-11-26T09:15:00.000Z' },
        });
        const csv = exportedJournalCsv(await services.journalExport());
        expect(csv).toMatch(/refused \(redeemed at another till of the shop\)/);
        expect(csv).toMatch(/Already redeemed at Till 2 at/);
        const report = await services.shiftReport('2000-01-01T00:00:00.000Z');
        expect(report.redemptions.refused).toBe(1);
        // Pressing again, and checking again, is the same attempt: the manager sees it once.
        expect(await rewards.redeem()).toBe(false);
        await rewards.check();
        await services.cacheWritesSettled();
        await new Promise((resolve) => setTimeout(resolve, 50));
        const again = await services.journalSince('2000-01-01T00:00:00.000Z');
        expect(again.filter((entry) => entry.outcome === 'refused_elsewhere')).toHaveLength(1);
      });

      it('queues a reward no other till claimed, then claims it once in the shop', async () => {
        const rewards = await checkedOffline();
        till.respond('shopCheck', () => ({ ok: true, data: { enabled: true, claimedBy: null, unreachable: [] } }));
        till.respond('shopClaim', claimOk);
        expect(await rewards.redeem()).toBe(true);
        expect(rewards.queued).toMatchObject({ code: 'RW-LAYLA001', state: 'pending' });
        expect(rewards.unreachableNote).toBeNull();
        // Claimed before the cashier is told "queued": the claim decides who hands it over.
        expect(till.callsTo('shopClaim')).toEqual([{ reward_code: 'RW-LAYLA001' }]);
        expect(till.callsTo('redeemReward')).toHaveLength(0);
        expect(await useOfflineStore().services().outboxItems()).toHaveLength(1);
      });

      it('at start-up, every redemption still waiting is announced to the shop again', async () => {
        const rewards = await checkedOffline();
        till.respond('shopCheck', () => ({ ok: true, data: { enabled: true, claimedBy: null, unreachable: [] } }));
        till.respond('shopClaim', claimOk);
        expect(await rewards.redeem()).toBe(true);
        till.calls.length = 0;
        expect(await useOfflineStore().services().announcePending()).toBe(true);
        expect(till.callsTo('shopClaim')).toEqual([{ reward_code: 'RW-LAYLA001' }]);
        // A ledger not running yet takes nothing: the caller tries again later.
        till.respond('shopClaim', () => ({
          ok: true,
          data: { enabled: false, winner: null, won: false, unreachable: [] },
        }));
        expect(await useOfflineStore().services().announcePending()).toBe(false);
      });

      it('withdraws its queued item when another till’s claim at the same moment wins', async () => {
        const rewards = await checkedOffline();
        till.respond('shopCheck', () => ({ ok: true, data: { enabled: true, claimedBy: null, unreachable: [] } }));
        till.respond('shopClaim', () => ({
          ok: true,
          data: {
            enabled: true,
            winner: { till: 'Till 2', at: '2026-11-26T09:00:00.000Z' },
            won: false,
            unreachable: [],
          },
        }));
        expect(await rewards.redeem()).toBe(false);
        expect(rewards.queued).toBeNull();
        expect(rewards.refusedNote).toMatch(/^Already redeemed at Till 2 at 26 Nov 2026, /);
        const services = useOfflineStore().services();
        expect(await services.outboxItems()).toHaveLength(0);
        expect(await services.journal()).toHaveLength(0);
        // The reward is not left marked as waiting here: the cache offers no second redeem from it.
        const reward = await till.db.rewards.get('RW-LAYLA001');
        expect(reward).toBeDefined();
        expect(reward?.pendingOutboxSeq).toBeUndefined();
      });

      it('refuses, naming the tills, when one is out of reach and Settings say so', async () => {
        const rewards = await checkedOffline();
        till.respond('getState', () => ({
          ok: true,
          data: tillState({ allowOfflineRedemption: true, shopRedeemWhenSplit: false }),
        }));
        await useSettingsStore().load();
        till.calls.length = 0;
        till.respond('shopCheck', () => ({
          ok: true,
          data: { enabled: true, claimedBy: null, unreachable: ['Till 3'] },
        }));
        till.respond('shopClaim', claimOk);
        expect(await rewards.redeem()).toBe(false);
        expect(rewards.refusedNote).toMatch(/^Till 3 can’t be reached and may have redeemed this reward; /);
        expect(till.callsTo('shopClaim')).toHaveLength(0);
        expect(await useOfflineStore().services().outboxItems()).toHaveLength(0);
      });

      it('adds to the warning the tills that did not take the claim', async () => {
        const rewards = await checkedOffline();
        till.respond('shopCheck', () => ({
          ok: true,
          data: { enabled: true, claimedBy: null, unreachable: ['Till 2'] },
        }));
        till.respond('shopClaim', () => ({
          ok: true,
          data: { ...claimOk().data, unreachable: ['Till 2', 'Till 3'] },
        }));
        expect(await rewards.redeem()).toBe(false);
        expect(await rewards.redeem({ anyway: true })).toBe(true);
        // Till 2 the cashier chose to redeem without; Till 3 is news.
        expect(rewards.unreachableTills).toEqual(['Till 3']);
      });

      it('keeps the queued redemption when the shop claim fails', async () => {
        const rewards = await checkedOffline();
        till.respond('shopCheck', () => ({ ok: true, data: { enabled: true, claimedBy: null, unreachable: [] } }));
        till.respond('shopClaim', () => ({ ok: false, error: { kind: 'server', message: 'The ledger stopped.' } }));
        expect(await rewards.redeem()).toBe(true);
        expect(till.callsTo('shopClaim')).toHaveLength(1);
        expect(await useOfflineStore().services().outboxItems()).toHaveLength(1);
      });

      it('asks the cashier before queuing anything while a till cannot be reached', async () => {
        const rewards = await checkedOffline();
        till.respond('shopCheck', () => ({
          ok: true,
          data: { enabled: true, claimedBy: null, unreachable: ['Till 1'] },
        }));
        till.respond('shopClaim', claimOk);
        expect(await rewards.redeem()).toBe(false);
        expect(rewards.splitQuestion).toBe(
          'Till 1 can’t be reached: it may have redeemed this reward. Ask at Till 1 or redeem anyway.',
        );
        expect(rewards.queued).toBeNull();
        expect(till.callsTo('shopClaim')).toHaveLength(0);
        expect(await useOfflineStore().services().outboxItems()).toHaveLength(0);
        // "Ask at Till 1": still nothing queued, and the redeem is there to press again.
        rewards.askAtTheOtherTill();
        expect(rewards.splitQuestion).toBeNull();
        expect(rewards.canRedeem).toBe(true);
        expect(await useOfflineStore().services().outboxItems()).toHaveLength(0);
        // Asked again, "redeem anyway": queued and claimed, with no second warning.
        expect(await rewards.redeem()).toBe(false);
        expect(await rewards.redeem({ anyway: true })).toBe(true);
        expect(rewards.queued).toMatchObject({ code: 'RW-LAYLA001' });
        expect(rewards.unreachableNote).toBeNull();
        expect(till.callsTo('shopClaim')).toHaveLength(1);
        expect(await useOfflineStore().services().outboxItems()).toHaveLength(1);
      });

      it('the check itself asks the shop: a reward another till redeemed reads so, with no redeem offered', async () => {
        const customers = await cachedThenOffline(true);
        till.respond('shopCheck', () => ({
          ok: true,
          data: { enabled: true, claimedBy: { till: 'Till 1', at: '2026-11-26T11:35:00.000Z' }, unreachable: [] },
        }));
        const rewards = useRewardsStore();
        rewards.start('RW-LAYLA001', customers.current);
        expect(await rewards.check()).toBe(true);
        expect(till.callsTo('shopCheck')).toEqual([{ reward_code: 'RW-LAYLA001' }]);
        expect(rewards.claimedElsewhere).toEqual({ till: 'Till 1', at: '2026-11-26T11:35:00.000Z' });
        expect(rewards.canRedeem).toBe(false);
      });

      for (const [name, answer] of [
        ['the ledger is off', () => ({ ok: true as const, data: SHOP_OFF })],
        [
          'the ledger cannot be asked',
          () => ({ ok: false as const, error: { kind: 'server' as const, message: 'No.' } }),
        ],
        [
          'the ask throws',
          () => {
            throw new Error('bridge gone');
          },
        ],
      ] as const) {
        it(`queues exactly as before when ${name}`, async () => {
          const rewards = await checkedOffline();
          till.respond('shopCheck', answer);
          till.respond('shopClaim', claimOk);
          expect(await rewards.redeem()).toBe(true);
          expect(rewards.queued).toMatchObject({ code: 'RW-LAYLA001', state: 'pending' });
          expect(rewards.unreachableNote).toBeNull();
          expect(rewards.refusedNote).toBeNull();
          expect(till.callsTo('shopCheck')).toHaveLength(1);
          await new Promise((resolve) => setTimeout(resolve, 0));
          expect(till.callsTo('shopClaim')).toHaveLength(0);
          expect(await useOfflineStore().services().outboxItems()).toHaveLength(1);
        });
      }

      it('asks the shop before queueing a redeem the service never received', async () => {
        const rewards = await checked();
        till.respond('getState', () => ({ ok: true, data: tillState({ allowOfflineRedemption: true }) }));
        await useSettingsStore().load();
        till.respond('redeemReward', () => ({
          ok: false,
          error: { kind: 'offline', message: 'Connection refused.' },
          attempt: { localStart: 0, localEnd: 1, start: null, end: null, uncertaintyMs: null, requestSent: false },
        }));
        till.respond('shopCheck', () => ({
          ok: true,
          data: { enabled: true, claimedBy: { till: 'Till 3', at: '2026-11-26T09:15:00.000Z' }, unreachable: [] },
        }));
        expect(await rewards.redeem()).toBe(false);
        expect(rewards.refusedNote).toMatch(/^Already redeemed at Till 3 at /);
        expect(till.callsTo('redeemReward')).toHaveLength(1);
        expect(await useOfflineStore().services().outboxItems()).toHaveLength(0);
      });
    });

    it('tells the cashier plainly when offline redemption is turned off, and queues nothing', async () => {
      const customers = await cachedThenOffline(false);
      const rewards = useRewardsStore();
      rewards.start('RW-LAYLA001', customers.current);
      await rewards.check();
      expect(rewards.offlineRedemptionForbidden).toBe(true);
      expect(rewards.canRedeem).toBe(false);
      expect(await rewards.redeem()).toBe(false);
      expect(await useOfflineStore().services().outboxItems()).toHaveLength(0);
    });
  });
});
