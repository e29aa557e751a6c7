/**
 * The fill writer's planning as a background task (renderer/offline/pacing/background-task.ts):
 * posted at background priority where the browser schedules by priority, a plain task elsewhere,
 * with the step's answer or its error either way.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { inBackgroundTask } from '../../../../renderer/offline/pacing/background-task';

afterEach(() => vi.unstubAllGlobals());

test('posted at background priority where the browser has postTask', async () => {
  const postTask = vi.fn(<T>(work: () => T) => Promise.resolve(work()));
  vi.stubGlobal('scheduler', { postTask });
  expect(await inBackgroundTask(() => 42)).toBe(42);
  expect(postTask).toHaveBeenCalledWith(expect.any(Function), { priority: 'background' });
});

test('a plain task elsewhere, after what is already running, with its answer or its error', async () => {
  vi.stubGlobal('scheduler', undefined);
  const order: string[] = [];
  const answer = inBackgroundTask(() => {
    order.push('step');
    return 'done';
  });
  order.push('caller');
  expect(await answer).toBe('done');
  expect(order).toEqual(['caller', 'step']);
  await expect(
    inBackgroundTask(() => {
      throw new Error('not prepared');
    }),
  ).rejects.toThrow('not prepared');
});
