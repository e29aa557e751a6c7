import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIVITY_HEARTBEAT_MS, useActivityStore } from '../../../renderer/stores/activity';
import { useCustomersStore } from '../../../renderer/stores/customers';
import { useRewardsStore } from '../../../renderer/stores/rewards';
import { useSettingsStore } from '../../../renderer/stores/settings';
import { customer, installFakeTill, tillState, type FakeTill } from '../support/fake-till';

describe('the till’s activity, told to the main process', () => {
  let till: FakeTill;
  let revision = 0;

  beforeEach(async () => {
    setActivePinia(createPinia());
    till = installFakeTill();
    revision = 0;
    till.respond('getState', () => ({
      ok: true,
      data: { ...tillState(), managed: { locked: revision > 0 ? ['baseUrl'] : [], problem: null, revision } },
    }));
    till.respond('noteActivity', () => ({ ok: true, data: { policyRevision: revision } }));
    await useSettingsStore().load();
  });
  afterEach(() => {
    useActivityStore().stop();
    vi.useRealTimers();
  });

  it('reports idle at start, then busy the moment a customer opens or a redemption is sent', async () => {
    const activity = useActivityStore();
    activity.start();
    await vi.waitFor(() =>
      expect(till.callsTo('noteActivity')).toEqual([{ customerOpen: false, inFlight: 0, outboxDurable: true }]),
    );
    useCustomersStore().current = customer();
    await vi.waitFor(() =>
      expect(till.callsTo('noteActivity').at(-1)).toEqual({ customerOpen: true, inFlight: 0, outboxDurable: true }),
    );
    useRewardsStore().redeeming = true;
    await vi.waitFor(() =>
      expect(till.callsTo('noteActivity').at(-1)).toEqual({ customerOpen: true, inFlight: 1, outboxDurable: true }),
    );
  });

  it('reports every minute even when nothing changes, so a quiet page is not taken for idle', async () => {
    vi.useFakeTimers();
    useActivityStore().start();
    await vi.advanceTimersByTimeAsync(0);
    expect(till.callsTo('noteActivity')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(ACTIVITY_HEARTBEAT_MS * 3);
    expect(till.callsTo('noteActivity')).toHaveLength(4);
  });

  it('reads the state again when the policy changed, so Settings shows what is locked now', async () => {
    const settings = useSettingsStore();
    expect(settings.state?.managed.locked).toEqual([]);
    revision = 1;
    await useActivityStore().report();
    expect(settings.state?.managed).toMatchObject({ locked: ['baseUrl'], revision: 1 });
    const loads = till.callsTo('getState').length;
    await useActivityStore().report();
    expect(till.callsTo('getState')).toHaveLength(loads);
  });
});
