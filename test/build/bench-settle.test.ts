import { expect, test } from 'vitest';
import { QUIET_CORES, waitUntilQuiet } from '../bench/settle';

test('the bench waits window after window until the browser is quiet, and no longer than its limit', async () => {
  const busy = [1.4, 0.9, 0.3, QUIET_CORES, 0.02, 1.0];
  const asked: number[] = [];
  const sample = async () => {
    const cores = busy[asked.length]!;
    asked.push(cores);
    return cores;
  };
  expect(await waitUntilQuiet(sample)).toEqual({ windows: 5, quiet: true });
  expect(asked).toEqual([1.4, 0.9, 0.3, QUIET_CORES, 0.02]);
  // A browser that never quiets: measured all the same after the limit, and said so.
  expect(await waitUntilQuiet(async () => 1, { maxWindows: 3 })).toEqual({ windows: 3, quiet: false });
});
