import { describe, expect, test } from 'vitest';
import type { ConnectionStatus, Result } from '../../../../common/contract';
import { ConnectionMonitor, observeApi, type Timers } from '../../../../renderer/offline/connection/connection-monitor';

/** Timers a test fires by hand, recording each delay asked for. */
function manualTimers() {
  const pending: { callback: () => void; ms: number; handle: number }[] = [];
  let next = 0;
  const timers: Timers = {
    setTimeout(callback, ms) {
      next += 1;
      pending.push({ callback, ms, handle: next });
      return next;
    },
    clearTimeout(handle) {
      const at = pending.findIndex((timer) => timer.handle === handle);
      if (at >= 0) pending.splice(at, 1);
    },
  };
  return {
    timers,
    pending,
    async fire() {
      const timer = pending.shift();
      if (!timer) throw new Error('no timer pending');
      timer.callback();
      await new Promise((resolve) => setTimeout(resolve, 0));
      return timer.ms;
    },
  };
}

function status(reachable: boolean | null): Result<ConnectionStatus> {
  return {
    ok: true,
    data: {
      mode: 'service',
      baseUrl: 'https://loyalty.example',
      reachable,
      checkedAt: '2026-03-01T09:00:00+00:00',
      ...(reachable === false
        ? { error: { kind: 'offline' as const, message: 'The loyalty service cannot be reached.' } }
        : {}),
    },
  };
}

describe('connection state', () => {
  test('comes from real outcomes: unreachable marks offline, any answer marks online', () => {
    const monitor = new ConnectionMonitor({ probe: async () => status(true) });
    const states: string[] = [];
    monitor.subscribe((snapshot) => states.push(snapshot.state));
    monitor.report({ ok: false, error: { kind: 'timeout', message: 'No answer in time.' } });
    expect(monitor.current()).toMatchObject({
      state: 'offline',
      reason: { code: 'said', message: 'No answer in time.' },
    });
    // A refusal is an answer: the service is there.
    monitor.report({ ok: false, error: { kind: 'validation', message: 'Bad phone.' } });
    expect(monitor.state).toBe('online');
    monitor.report({ ok: false, error: { kind: 'offline', message: 'Down.' } });
    monitor.report({ ok: true });
    expect(states).toEqual(['offline', 'online', 'offline', 'online']);
  });

  test('probes with growing back-off while offline, and stops once online', async () => {
    const clock = manualTimers();
    const answers = [status(false), status(false), status(false), status(true)];
    let probes = 0;
    const monitor = new ConnectionMonitor({
      probe: async () => answers[probes++]!,
      timers: clock.timers,
      random: () => 0.5,
      backoff: { baseMs: 1_000, maxMs: 60_000 },
    });
    monitor.start();
    expect(await clock.fire()).toBe(0); // the first probe runs at once
    expect(monitor.state).toBe('offline');
    const delays = [await clock.fire(), await clock.fire(), await clock.fire()];
    expect(delays).toEqual([750, 1_500, 3_000]);
    expect(monitor.state).toBe('online');
    expect(clock.pending).toHaveLength(0);
    expect(probes).toBe(4);
    monitor.stop();
  });

  test('browser events are hints: offline marks offline, online probes rather than trusting it', async () => {
    const events = new EventTarget();
    const clock = manualTimers();
    let reachable = false;
    const monitor = new ConnectionMonitor({ probe: async () => status(reachable), timers: clock.timers, events });
    monitor.report({ ok: true });
    monitor.start();
    events.dispatchEvent(new Event('offline'));
    expect(monitor.state).toBe('offline');
    events.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(monitor.state).toBe('offline'); // the probe still fails
    reachable = true;
    events.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(monitor.state).toBe('online');
    monitor.stop();
  });

  test('nothing configured is neither online nor offline', async () => {
    const monitor = new ConnectionMonitor({ probe: async () => status(null) });
    expect(await monitor.probeNow()).toBe('unknown');
  });

  test('an observed API reports each outcome and passes results through unchanged', async () => {
    const monitor = new ConnectionMonitor({ probe: async () => status(true) });
    const failure = { ok: false as const, error: { kind: 'offline' as const, message: 'Down.' } };
    const api = observeApi({ getCustomer: async () => failure } as never, monitor);
    expect(await api.getCustomer({ id: 'x' })).toBe(failure);
    expect(monitor.state).toBe('offline');
  });
});
