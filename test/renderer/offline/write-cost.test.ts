import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FIRST_WRITE_COST, WriteCostModel } from '../../../renderer/offline/write-cost';

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
