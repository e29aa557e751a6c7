import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FIRST_WRITE_COST, PartedWritePace, WriteCostModel } from '../../../../renderer/offline/pacing/write-cost';

/** Transactions timed as `fixed + perCustomer * n`, with the noise given (a factor per sample). */
function observed(model: WriteCostModel, fixed: number, perCustomer: number, sizes: number[], noise: number[] = []) {
  sizes.forEach((n, i) => model.observe(n, (fixed + perCustomer * n) * (noise[i % noise.length] ?? 1)));
}

describe("the refresh's write cost model", () => {
  test('before any transaction: the first guess', () => {
    const model = new WriteCostModel();
    expect(model.current).toEqual(FIRST_WRITE_COST);
    expect(model.estimate(100)).toBeCloseTo(FIRST_WRITE_COST.fixedMs + 100 * FIRST_WRITE_COST.msPerCustomer);
  });

  test('tells the fixed part from the per-customer part of transactions of different sizes', () => {
    const model = new WriteCostModel();
    observed(model, 8, 0.07, [16, 40, 100, 250, 300, 60, 180, 1000]);
    expect(model.current.fixedMs).toBeCloseTo(8, 5);
    expect(model.current.msPerCustomer).toBeCloseTo(0.07, 5);
    // What an average per customer got wrong: a short transaction is mostly its fixed part.
    expect(model.estimate(16)).toBeCloseTo(9.12, 5);
    expect(model.customersWithin(24)).toBe(228);
    expect(model.customersWithin(8)).toBe(0);
    // Beyond the fixed part alone (for a pause shorter than it, which a write meets anyway).
    expect(model.customersBeyondFixedPart(7)).toBe(100);
  });

  test('follows a till that becomes busier: the line of the last transactions, not of all', () => {
    const model = new WriteCostModel();
    observed(model, 2, 0.03, [20, 80, 200, 400, 100, 50, 300, 150]);
    observed(
      model,
      9,
      0.08,
      Array.from({ length: 40 }, (_, i) => 16 + ((i * 37) % 300)),
    );
    expect(model.current.fixedMs).toBeCloseTo(9, 5);
    expect(model.current.msPerCustomer).toBeCloseTo(0.08, 5);
  });

  test('sizes too alike to tell the parts apart: the per-customer part is kept, the fixed part follows the times', () => {
    const model = new WriteCostModel();
    observed(model, 5, 0.05, [50, 300, 100, 200]);
    const slope = model.current.msPerCustomer;
    observed(
      model,
      20,
      0.05,
      Array.from({ length: 40 }, () => 100),
    );
    // The slope of the last window that could tell (mixing both loads), not a 40-sample guess at noise.
    expect(model.current.msPerCustomer).toBeGreaterThan(0);
    expect(model.current.msPerCustomer).not.toBe(slope);
    const kept = model.current.msPerCustomer;
    observed(model, 20, 0.05, [100, 100, 100]);
    expect(model.current.msPerCustomer).toBe(kept);
    // The transactions of the size seen are expected to take what they took.
    expect(model.estimate(100)).toBeCloseTo(25, 5);
  });

  test('whatever the noise, the fixed part never exceeds the quickest transaction, and something always fits a pause longer than it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.double({ min: 0.5, max: 80, noNaN: true })), {
          minLength: 1,
          maxLength: 60,
        }),
        (samples) => {
          const model = new WriteCostModel();
          for (const [n, ms] of samples) model.observe(n, ms);
          const window = samples.slice(-32);
          const quickest = Math.min(...window.map(([, ms]) => ms));
          const { fixedMs, msPerCustomer } = model.current;
          expect(fixedMs).toBeGreaterThanOrEqual(0);
          expect(fixedMs).toBeLessThanOrEqual(quickest);
          expect(msPerCustomer).toBeGreaterThan(0);
          expect(model.customersWithin(quickest + 5 * msPerCustomer + 1e-9)).toBeGreaterThanOrEqual(5);
        },
      ),
    );
  });

  test('an odd sample (no customers, a negative time) is ignored', () => {
    const model = new WriteCostModel();
    model.observe(0, 50);
    model.observe(10, -1);
    model.observe(Number.NaN, 5);
    expect(model.current).toEqual(FIRST_WRITE_COST);
  });
});

describe("a parted write's pace", () => {
  test('before any part: the first guess of a customer and of the end', () => {
    const pace = new PartedWritePace();
    const { msPerCustomer, fixedMs } = FIRST_WRITE_COST;
    // 64 more behind 64 in flight, then the end: exactly the time left fits, a hair less does not.
    const needed = 128 * msPerCustomer + fixedMs;
    expect(pace.fits(1_000, 64, 64, 1_000 + needed)).toBe(true);
    expect(pace.fits(1_000, 64, 64, 1_000 + needed - 0.01)).toBe(false);
    expect(pace.fits(1_000, 0, 64, Number.POSITIVE_INFINITY)).toBe(true);
  });

  test('follows what parts and ends cost now, the latest weighing most', () => {
    const pace = new PartedWritePace();
    for (let i = 0; i < 60; i++) {
      pace.observePart(64, 64 * 0.03);
      pace.observeFinish(2);
    }
    // 0.03 ms a customer and 2 ms to end: 100 customers need 5 ms.
    expect(pace.fits(0, 0, 100, 5.01)).toBe(true);
    expect(pace.fits(0, 0, 100, 4.9)).toBe(false);
    // The till slows: a few slow parts move the estimate most of the way.
    for (let i = 0; i < 10; i++) pace.observePart(64, 64 * 0.3);
    expect(pace.fits(0, 0, 100, 20)).toBe(false);
  });

  test('a sample out of bounds or not a time is not learnt as it came', () => {
    const pace = new PartedWritePace();
    pace.observePart(0, 5);
    pace.observePart(64, Number.NaN);
    pace.observePart(64, -1);
    pace.observeFinish(Number.NaN);
    const fresh = new PartedWritePace();
    for (const behind of [0, 64, 640]) expect(pace.fits(0, behind, 64, 50)).toBe(fresh.fits(0, behind, 64, 50));
    // One absurd part is clamped: it cannot make every later part look impossibly dear.
    pace.observePart(64, 1e9);
    expect(pace.fits(0, 0, 64, 100)).toBe(true);
  });
});
