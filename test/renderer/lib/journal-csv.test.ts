import { describe, expect, test } from 'vitest';
import { csvCell, journalToCsv } from '../../../renderer/lib/journal-csv';
import type { JournalEntry, OutboxItem } from '../../../renderer/offline/db/schema';

const entry: JournalEntry = {
  seq: 1,
  uid: '00000000-0000-4000-8000-00000000e001',
  outboxUid: '00000000-0000-4000-8000-00000000a004',
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
    const csv = journalToCsv([
      entry,
      { ...entry, seq: 2, customerName: '', outcome: 'failure_acknowledged', note: 'Unknown code.' },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'time,code,customer,order reference,branch,outcome,service time,cashier,state,reward,points',
      `2026-03-01T09:00:00.000Z,RW-LAYLA001,"Haddad, ""Layla""",'@SUM(A1),,"redeemed, most likely by this till (answer lost): Redeemed while this till’s answer was lost — most likely this till’s.",,,done,,`,
      `2026-03-01T09:00:00.000Z,RW-LAYLA001,'+966501234567,'@SUM(A1),,failed (acknowledged): Unknown code.,,,done,,`,
      '',
    ]);
  });

  test('names the cashier, the reward and its points, and lists what is still open with its state', () => {
    const open: OutboxItem[] = [
      {
        seq: 9,
        uid: '00000000-0000-4000-8000-00000000a009',
        kind: 'redeem',
        state: 'conflict',
        queuedAt: '2026-03-01T10:00:00.000Z',
        firstAttemptAt: null,
        lastAttemptAt: null,
        attempts: 1,
        nextAttemptAt: null,
        lastError: null,
        note: null,
        code: 'RW-OMAR0001',
        phoneE164: '+966551112222',
        branchId: null,
        orderReference: 'POS-9',
        customerId: 'c-2',
        customerName: 'Omar',
        serviceReward: null,
        attribution: { verdict: 'no_unanswered_attempt', redeemedAt: null, attemptsAt: [] },
        cashier: 'Sara (12)',
        rewardName: 'Free coffee',
        points: null,
      },
      {
        seq: 10,
        uid: '00000000-0000-4000-8000-00000000a010',
        kind: 'register',
        state: 'pending',
        queuedAt: '2026-03-01T10:05:00.000Z',
        firstAttemptAt: null,
        lastAttemptAt: null,
        attempts: 0,
        nextAttemptAt: null,
        lastError: null,
        note: null,
        name: 'Nour',
        phoneE164: '+966553334444',
        email: null,
        birthday: null,
        customerPk: 3,
        localCustomerId: 'local-1',
        cashier: null,
      },
    ];
    const rows = journalToCsv([{ ...entry, cashier: 'Omar', rewardName: 'Cake', points: 50 }], open)
      .trimEnd()
      .split('\r\n');
    expect(rows).toHaveLength(4);
    expect(rows[1]!.endsWith(',Omar,done,Cake,50')).toBe(true);
    expect(rows[2]).toMatch(/^2026-03-01T10:00:00.000Z,RW-OMAR0001,Omar,POS-9,,"?redemption: /);
    expect(rows[2]!.endsWith(',,Sara (12),in conflict,Free coffee,')).toBe(true);
    expect(rows[3]).toBe('2026-03-01T10:05:00.000Z,,Nour,,,registration,,,waiting,,');
  });

  test('a redemption attributed by its time says "most likely", with the attempt and the service time', () => {
    const csv = journalToCsv([
      { ...entry, attemptAt: '2026-03-01T08:35:21.000Z', serviceAt: '2026-03-01T08:36:02.000Z' },
    ]);
    const row = csv.split('\r\n')[1]!;
    expect(row).toMatch(/redeemed during this till’s unanswered attempt at \d{2}:\d{2}:21 — most likely this till’s/i);
    expect(row).not.toMatch(/confirmed/i);
    expect(row.endsWith(',2026-03-01T08:36:02.000Z,,done,,')).toBe(true);
  });
});
