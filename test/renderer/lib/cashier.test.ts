import { describe, expect, it } from 'vitest';
import { cashierFromLink, cashierLabel } from '../../../renderer/lib/cashier';

const roster = [
  { name: 'Sara Ali', number: '12' },
  { name: 'Omar', number: null },
  { name: 'Nour', number: 'B-7' },
];

describe('the cashier a link names', () => {
  it('labels a listed cashier by name and number', () => {
    expect(cashierLabel(roster[0]!)).toBe('Sara Ali (12)');
    expect(cashierLabel(roster[1]!)).toBe('Omar');
  });

  it('is the listed cashier whose number or name the link gives, so one person is counted once', () => {
    expect(cashierFromLink('12', roster)).toBe('Sara Ali (12)');
    expect(cashierFromLink('b-7', roster)).toBe('Nour (B-7)');
    expect(cashierFromLink('sara ali', roster)).toBe('Sara Ali (12)');
    expect(cashierFromLink(' Omar ', roster)).toBe('Omar');
  });

  it('is the link’s own words for someone not listed', () => {
    expect(cashierFromLink('Till temp', roster)).toBe('Till temp');
    expect(cashierFromLink('99', [])).toBe('99');
  });
});
