import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { JournalEntry, JournalOutcome } from '../../../renderer/offline/db/schema';
import { csvCell, journalCsvHeader, journalRow, journalToCsv } from '../../../renderer/lib/journal-csv';
import { anyText } from '../offline/support/arbitraries';

// What a spreadsheet would run as a formula: the journal prefixes these cells with an apostrophe.
const FORMULA_START = /^[=+\-@\t\r]/;
const defused = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

const OUTCOMES: JournalOutcome[] = [
  'redeemed',
  'redeemed_answer_lost',
  'registered',
  'conflict_acknowledged',
  'failure_acknowledged',
];
const isoTime = fc
  .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') })
  .map((d) => d.toISOString());

const entry: fc.Arbitrary<JournalEntry> = fc.record({
  uid: fc.uuid(),
  outboxUid: fc.option(fc.uuid()),
  outboxSeq: fc.nat(),
  kind: fc.constantFrom('redeem', 'register') as fc.Arbitrary<JournalEntry['kind']>,
  doneAt: isoTime,
  outcome: fc.constantFrom(...OUTCOMES),
  code: fc.option(anyText),
  customerId: fc.option(fc.string()),
  customerName: anyText,
  phoneE164: fc.oneof(fc.constant(''), fc.stringMatching(/^\+[1-9]\d{6,14}$/)),
  orderReference: fc.option(anyText),
  branchId: fc.option(anyText),
  queuedAt: fc.constant('2026-03-01T08:00:00.000Z'),
  firstAttemptAt: fc.constant(null),
  note: fc.option(anyText),
  serviceAt: fc.option(isoTime),
  attemptAt: fc.option(isoTime),
});

function parsed(csv: string): string[][] {
  return parse(csv, { relax_quotes: false, relax_column_count: false, skip_empty_lines: false }) as string[][];
}

describe('journal CSV, for any entries', () => {
  test('a real CSV parser reads back every cell, formulas defused', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 8 }), (entries) => {
        const rows = parsed(journalToCsv(entries));
        expect(rows[0]).toEqual(journalCsvHeader());
        // The cells read back are the entry's own cells (journalRow: its words are tested in
        // journal-csv.test.ts), only with formula starts defused.
        expect(rows.slice(1)).toEqual(entries.map((e) => journalRow(e).map(defused)));
        expect(rows.slice(1).map((row) => row.slice(1, 5))).toEqual(
          entries.map((e) =>
            [e.code ?? '', e.customerName || e.phoneE164, e.orderReference ?? '', e.branchId ?? ''].map(defused),
          ),
        );
      }),
      { numRuns: 300 },
    );
  });

  test('one cell reads back as itself (defused), and never starts a formula', () => {
    fc.assert(
      fc.property(anyText, fc.string({ unit: 'binary', maxLength: 12 }), (text, raw) => {
        for (const value of [text, raw]) {
          const [[cell]] = parsed(`${csvCell(value)},x\r\n`) as [[string]];
          expect(cell).toBe(defused(value));
          expect(FORMULA_START.test(cell)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});
