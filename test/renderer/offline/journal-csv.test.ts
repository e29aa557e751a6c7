import { describe, expect, test } from 'vitest';
import { csvCell, journalToCsv } from '../../../renderer/offline/journal-csv';
import type { JournalEntry } from '../../../renderer/offline/db';

const entry: JournalEntry = {
  seq: 1,
  outboxSeq: 4,
  kind: 'redeem',
  doneAt: '2026-03-01T09:00:00.000Z',
  outcome: 'redeemed_answer_lost',
  code: 'RW-LAYLA001',
  customerId: 'c-1',
  customerName: 'Haddad, "Layla"',
  phoneE164: '+966501234567',
  orderReference: '@SUM(A1)',
  branchId: null,
  queuedAt: '2026-03-01T08:00:00.000Z',
  firstAttemptAt: '2026-03-01T08:30:00.000Z',
  note: null,
};

describe('journal CSV', () => {
  test('quotes separators, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
  });

  test('defuses cells a spreadsheet would run as formulas', () => {
    for (const text of ['=1+1', '+966501234567', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(text).replace(/^"/, '').startsWith("'")).toBe(true);
    }
  });

  test('one row per entry under the agreed header, CRLF line ends', () => {
    const csv = journalToCsv([entry, { ...entry, seq: 2, customerName: '', outcome: 'failure_acknowledged', note: 'Unknown code.' }]);
    expect(csv.split('\r\n')).toEqual([
      'time,code,customer,order reference,branch,outcome',
      `2026-03-01T09:00:00.000Z,RW-LAYLA001,"Haddad, ""Layla""",'@SUM(A1),,redeemed (confirmed after a lost answer)`,
      `2026-03-01T09:00:00.000Z,RW-LAYLA001,'+966501234567,'@SUM(A1),,failed (acknowledged): Unknown code.`,
      '',
    ]);
  });
});
