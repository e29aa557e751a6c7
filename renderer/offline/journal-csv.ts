/**
 * The journal as CSV, for the back office: one row per item that left the outbox.
 *
 * Cells are quoted per RFC 4180, and a cell that a spreadsheet would run as a formula
 * (starting with = + - @, a tab or a carriage return) is prefixed with an apostrophe: names
 * and order references come from people and must never execute when the file is opened.
 */
import type { JournalEntry, JournalOutcome } from './db';
import { likelyOursWords } from './reconciliation-words';

export const JOURNAL_CSV_HEADER = ['time', 'code', 'customer', 'order reference', 'branch', 'outcome', 'service time'] as const;

const OUTCOME_WORDS: Record<JournalOutcome, string> = {
  redeemed: 'redeemed',
  redeemed_answer_lost: 'redeemed, most likely by this till (answer lost)',
  registered: 'registered',
  conflict_acknowledged: 'conflict (acknowledged)',
  failure_acknowledged: 'failed (acknowledged)',
};

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function journalToCsv(entries: readonly JournalEntry[]): string {
  const rows = entries.map((entry) => [
    entry.doneAt,
    entry.code,
    entry.customerName || entry.phoneE164,
    entry.orderReference,
    entry.branchId,
    outcomeCell(entry),
    entry.serviceAt ?? '',
  ]);
  return [JOURNAL_CSV_HEADER, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function outcomeCell(entry: JournalEntry): string {
  // Entries journalled before the attribution rule said "confirmed": the evidence was a time.
  const note = entry.outcome === 'redeemed_answer_lost' && (entry.attemptAt || !entry.note || entry.note.startsWith('Confirmed')) ? likelyOursWords(entry.attemptAt) : entry.note;
  return note ? `${OUTCOME_WORDS[entry.outcome]}: ${note}` : OUTCOME_WORDS[entry.outcome];
}
