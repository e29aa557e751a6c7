/**
 * Why the till is offline: the connection monitor keeps a reason, never words, and the view
 * layer words it in the interface language of the moment (a language switch re-words it).
 * What the bridge or the service said is passed on as said.
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { ConnectionStatus, Result } from '../../../common/contract';
import { applyInterfaceLocale } from '../../../renderer/i18n/interface-locale';
import { offlineReasonWords } from '../../../renderer/lib/connection-words';
import { ConnectionMonitor } from '../../../renderer/offline/connection/connection-monitor';

const arabic = () => applyInterfaceLocale({ language: 'ar', arabicDigits: 'arab' }, null);
const english = () => applyInterfaceLocale({ language: 'en', arabicDigits: 'arab' }, null);

const unreachable = (error?: { kind: 'offline'; message: string }): Result<ConnectionStatus> => ({
  ok: true,
  data: {
    mode: 'service',
    baseUrl: 'https://loyalty.example',
    reachable: false,
    checkedAt: '2026-03-01T09:00:00+00:00',
    ...(error ? { error } : {}),
  },
});

/** The reason the monitor keeps after `act`, with no timers running. */
async function reasonAfter(act: (monitor: ConnectionMonitor, events: EventTarget) => unknown) {
  const events = new EventTarget();
  const monitor = new ConnectionMonitor({ probe: async () => unreachable(), events });
  await act(monitor, events);
  const reason = monitor.current().reason;
  monitor.stop();
  return reason!;
}

describe('why the till is offline', () => {
  afterEach(english);

  test('a lost network is a reason, worded in English and again in Arabic after a switch', async () => {
    const reason = await reasonAfter((monitor, events) => {
      monitor.start();
      events.dispatchEvent(new Event('offline'));
    });
    expect(reason).toEqual({ code: 'lost_network' });
    expect(offlineReasonWords(reason)).toBe('The network connection was lost.');
    arabic();
    expect(offlineReasonWords(reason)).toBe('انقطع الاتصال بالشبكة.');
  });

  test('a probe that failed with nothing said is "unreachable", in both languages', async () => {
    const reason = await reasonAfter((monitor) => monitor.probeNow());
    expect(reason).toEqual({ code: 'unreachable' });
    expect(offlineReasonWords(reason)).toBe('The service cannot be reached.');
    arabic();
    expect(offlineReasonWords(reason)).toBe('تعذّر الوصول إلى الخدمة.');
  });

  test('what the bridge said is passed on as said, in any language', async () => {
    const said = 'يتعذّر الوصول إلى نظام الولاء. تحقّق من الاتصال.';
    const events = new EventTarget();
    const monitor = new ConnectionMonitor({
      probe: async () => unreachable({ kind: 'offline', message: said }),
      events,
    });
    await monitor.probeNow();
    expect(monitor.current().reason).toEqual({ code: 'said', message: said });
    expect(offlineReasonWords(monitor.current().reason!)).toBe(said);
    monitor.report({ ok: false, error: { kind: 'timeout', message: '' } });
    expect(monitor.current().reason).toEqual({ code: 'unreachable' });
  });

  test('a listener hears a change of reason, and not the same reason twice', async () => {
    const monitor = new ConnectionMonitor({ probe: async () => unreachable() });
    const heard: unknown[] = [];
    monitor.subscribe((snapshot) => heard.push(snapshot.reason));
    monitor.markOffline({ code: 'said', message: 'Down.' });
    monitor.markOffline({ code: 'said', message: 'Down.' });
    monitor.markOffline({ code: 'said', message: 'Still down.' });
    monitor.markOffline({ code: 'lost_network' });
    expect(heard).toEqual([
      { code: 'said', message: 'Down.' },
      { code: 'said', message: 'Still down.' },
      { code: 'lost_network' },
    ]);
  });
});
