import { expect, test } from 'vitest';
import { oldestQueued, outboxStateCounts } from '../../common/outbox-figures';

// The outbox in figures (common/outbox-figures.ts), as the till's health and the shop's report count it.

test('counts waiting, failed and in conflict; the other states are not counted', () => {
  const items = ['pending', 'pending', 'failed', 'conflict', 'sending', 'done'].map((state) => ({
    state,
    queuedAt: '2026-11-28T08:00:00.000Z',
  }));
  expect(outboxStateCounts(items)).toEqual({ waiting: 2, failed: 1, conflicts: 1 });
  expect(outboxStateCounts([])).toEqual({ waiting: 0, failed: 0, conflicts: 0 });
});

test('the oldest by its time, whatever the spelling of the zone; a time that is not one passed over', () => {
  const items = [
    { state: 'pending', queuedAt: '2026-11-28T08:30:00.000Z' },
    // 07:00 UTC: the oldest, though its text sorts after the others'.
    { state: 'failed', queuedAt: '2026-11-28T10:00:00+03:00' },
    { state: 'pending', queuedAt: 'not a time' },
  ];
  expect(oldestQueued(items)).toBe(items[1]);
  expect(oldestQueued([{ state: 'pending', queuedAt: '' }])).toBeNull();
  expect(oldestQueued([])).toBeNull();
});
