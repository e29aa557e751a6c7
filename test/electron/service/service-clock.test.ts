import { describe, expect, test } from 'vitest';
import { ServiceClock } from '../../../electron/service/service-clock';
import { attribute } from '../../../renderer/offline/outbox/attribution';

describe('the service clock estimate', () => {
  test('bounds the offset by each answer and narrows it as answers agree; a moved clock starts afresh', () => {
    let mono = 1_000_000;
    const clock = new ServiceClock({ monotonicNow: () => mono, wallNow: () => mono });
    const skew = 600_000; // the service runs ten minutes ahead
    expect(clock.estimate()).toBeNull();
    for (const phase of [100, 400, 700, 900]) {
      mono += 1000 + phase;
      const service = mono + skew;
      clock.observe(new Date(Math.floor(service / 1000) * 1000).toUTCString(), mono - 50, mono + 50);
    }
    const estimate = clock.estimate()!;
    expect(Math.abs(estimate.offsetMs - skew)).toBeLessThanOrEqual(estimate.uncertaintyMs);
    expect(estimate.uncertaintyMs).toBeLessThan(550);
    expect(estimate.wallOffsetMs).toBe(estimate.offsetMs);
    // The service's clock is corrected by an hour: older answers no longer count.
    mono += 2000;
    clock.observe(new Date(mono + skew + 3_600_000).toUTCString(), mono - 50, mono + 50);
    expect(Math.abs(clock.estimate()!.offsetMs - (skew + 3_600_000))).toBeLessThan(1100);
  });
});

describe('the window rule', () => {
  const clock = { offsetMs: 0, uncertaintyMs: 200, tillClockOffMs: 0, localNow: 0, requestTimeoutMs: 8000 };
  const attempt = {
    start: Date.parse('2026-03-01T11:35:21.300Z'),
    end: Date.parse('2026-03-01T11:35:21.500Z'),
    uncertaintyMs: 200,
    localStart: 0,
    localEnd: 200,
  };
  test('inside an unanswered attempt (to the second): most likely ours', () => {
    expect(attribute('2026-03-01T11:35:21+00:00', [attempt], clock)).toMatchObject({ ours: true });
  });
  test('5 s after the attempt gave up, or before it: not ours', () => {
    expect(attribute('2026-03-01T11:35:27+00:00', [attempt], clock)).toMatchObject({
      ours: false,
      attribution: { verdict: 'outside_attempts' },
    });
    expect(attribute('2026-03-01T11:30:00+00:00', [attempt], clock)).toMatchObject({ ours: false });
  });
  test('no unanswered attempt: known not ours; clock never known: cannot tell', () => {
    expect(attribute('2026-03-01T11:35:21+00:00', [], clock)).toMatchObject({
      ours: false,
      attribution: { verdict: 'no_unanswered_attempt' },
    });
    const unplaced = { ...attempt, start: null, end: null, uncertaintyMs: null };
    expect(attribute('2026-03-01T11:35:21+00:00', [unplaced], null)).toMatchObject({
      ours: false,
      attribution: { verdict: 'clock_unknown' },
    });
  });
});
